"""Rules: the solo variant (rulebook "SOLO VARIANT"; decisions A28-A31).

Quotes (``>`` lines) are from the current rulebook. Every expected option below was worked out
by hand from the board (cells: ``a1`` top left, rows counted from the top); the reasoning is in
the comments. The golden positions live in solo_positions.py.
"""

from __future__ import annotations

import pytest
from positions import RING, D, board_of, fields, pieces, position, turns
from solo_positions import (
    SOLO,
    SOLO_MONK,
    after_sowing,
    all_four,
    matter_ends,
    p1_decides,
    p2_matter,
    p2_next_turn,
    p3_decides,
    risk_matter,
    risk_next_turn,
    sow_base_first,
)

from taolong_lab import (
    IllegalTurnError,
    Result,
    Rules,
    RulesError,
    State,
    new_game,
    solo_game,
)
from taolong_lab.engine.solo import opponent_choices, opponent_options


def groups(state: State, prefix: str) -> list[str]:
    """The opponent groups written in the legal turns starting with ``prefix``, in order,
    without repeats."""
    out = []
    for t in state.legal_turns():
        text = str(t)
        if text.startswith(prefix) and "(" in text:
            g = text[text.index("(") : text.index(")") + 1]
            if g not in out:
                out.append(g)
    return out


def notations(options) -> list[str]:
    return [o.notation() for o in options]


# ---- setup -----------------------------------------------------------------------------------
def test_setup_places_both_dragons_and_the_player_always_moves():
    """Both dragons start on their usual cells, the player picks a dragon and it is always its
    turn: the TLN side field never changes, the turn number counts the player's turns.

    > During setup, place both dragons on the board of Human and
    > choose a dragon to play with. In the solo variant, it's always your
    > turn.
    Decision: A31
    """
    two = new_game()
    for player in ("white", "black"):
        s = solo_game(player=player)
        assert s.rules == Rules(solo=True)
        assert s.player == s.to_move == player
        assert fields(s)["rules"] == "field/grasshopper/current/solo"
        assert fields(s)["side"] == player[0]
        assert (s.cells("white"), s.cells("black")) == (two.cells("white"), two.cells("black"))
        assert (s.bagua, s.centre) == (two.bagua, two.centre)
        for _ in range(3):
            s = s.play(s.legal_turns()[0])
            assert s.player == s.to_move == player
            assert fields(s)["side"] == player[0]
        assert s.ply == 3 and fields(s)["turn"] == "4"
    assert two.player is None
    assert new_game(solo=True).player == "white"


def test_setup_segments_and_water_per_dragon():
    """The starting segments (1-3) and water (1-4) are settings, for both dragons or by colour.

    > Try beginning with less segments.
    Decision: A31
    """
    for n in (1, 2, 3):
        s = solo_game(segments=n)
        assert [len(s.cells(c)) for c in ("white", "black")] == [n + 1, n + 1]
        assert s.cells("white") == new_game().cells("white")[: n + 1]
    s = solo_game(player="black", segments={"black": 1}, water={"white": 2})
    assert pieces(s) == ("a2-a1-b1-b2:2:0", "g8-h8:4:0", "2:8")
    assert s.life("black") == 4 and s.life("white") == 10
    assert solo_game(water=1).centre == (6, 8)
    for bad in (
        {"segments": 0},
        {"segments": 4},
        {"segments": True},
        {"water": 0},
        {"water": 5},
        {"segments": {"red": 2}},
        {"player": "red"},
        {"bagua": "mixed"},
    ):
        with pytest.raises(RulesError):
            solo_game(**bad)


def test_shuffled_bagua_is_seeded_and_stored():
    """A random Ba Gua is shuffled once from a seed and stored in the position: reading the
    TLN or JSON back, or playing on, never draws it again.

    > try mixing up the Ba Gua stones during setup
    > so they appear in a random configuration on the Ba Gua.
    Decision: A31
    """
    main = [RING.index(m) for m in ("He", "Fi", "Ea", "Wa")]
    draws = set()
    for seed in range(20):
        s = solo_game(bagua="shuffled", seed=seed)
        assert s == solo_game(bagua="shuffled", seed=seed)
        assert [len(stack) for stack in s.bagua] == [2 if i in main else 0 for i in range(8)]
        assert sorted("".join(s.bagua)) == sorted("WWWWBBBB")
        draws.add(s.bagua)
        r = solo_game(bagua="random", seed=seed)
        assert r.bagua == solo_game(bagua="random", seed=seed).bagua
        assert sorted("".join(r.bagua)) == sorted("WWWWBBBB")
        draws.add(r.bagua)
        for x in (s, r):
            tln = x.to_tln()
            assert State(tln).bagua == x.bagua and State(tln) == x
            assert State.from_json(x.to_json()).bagua == x.bagua
    assert len(draws) > 20  # the seeds really draw different stacks
    # playing on sows the stored stacks (base first), nothing is drawn again
    s = solo_game(bagua="shuffled", seed=3)
    for _ in range(3):
        turn = s.legal_turns()[0]
        bagua, _, _ = sow_base_first(s.bagua, turn.phases[0].space)
        s = s.play(turn)
        assert s.bagua == bagua
    assert solo_game(bagua="shuffled", seed=7).bagua == ("WB", "", "BB", "", "WW", "", "WB", "")


def test_solo_options_need_the_solo_variant():
    """The solo options (A29's focus reading, A30's lookahead) exist only in solo.

    > The solo variant plays exactly like the 2-player game with the
    > following exceptions:
    Decision: A29, A30
    """
    for option in ({"solo_lookahead": "next-turn"}, {"solo_focus_replaces_action": True}):
        with pytest.raises(RulesError, match="only applies to the solo variant"):
            new_game(**option)
        with pytest.raises(RulesError):
            Rules.make(**option)
        s = solo_game(**option)
        assert s.rules.option(next(iter(option))) == next(iter(option.values()))
        assert "+solo_" in fields(s)["rules"]
        assert State(s.to_tln()).rules == s.rules
    assert new_game(solo_lookahead="matter").rules == Rules()  # the default is accepted
    with pytest.raises(RulesError):
        solo_game(solo_lookahead="forever")
    with pytest.raises(RulesError, match="solo rules"):
        from taolong_lab.engine.setup import solo_start

        solo_start(Rules())


def test_the_village_in_solo():
    """The Village can be played in solo. Its damage comes at the end of the challenger's own
    turn: the player takes it when it is the challenger; the opponent never has a turn, so it
    never does.

    > The village inflicts 1 damage to the challenging dragon if there is any part
    > of it adjacent to the village at the end of its player's turn.
    Decision: A22, A31
    """
    assert solo_game(village="black").rules.option("village") == "black"
    # White (the player) c5 facing N, beside the village d4-e5; black f5 facing W, beside it
    # too. Sowing Lake (WWWW) lands on Mountain with only white stones: no opponent group;
    # white faces the other axis, so the Mountain keeps it in place (its bite hits c4: empty).
    kwargs = {"bagua": {"He": "BBBB", "La": "WWWW"}}
    for protector in ("white", "black"):
        s = position(
            "c5 c6 c7 c8",
            "f5 g5 h5 h6",
            rules=SOLO + f"+village={protector}",
            board=board_of("field", village=protector),
            **kwargs,
        )
        after = s.play("La>Mo =")
        white, black = after.dragon("white"), after.dragon("black")
        if protector == "black":  # the player is the challenger: 1 damage
            assert (white.water, black.water) == (3, 4)
        else:  # the opponent is the challenger but has no turn of its own: no damage
            assert (white.water, black.water) == (4, 4)
            # more turns in which black stays beside the village: still no damage
            for _ in range(2):
                turn = next(t for t in after.legal_turns() if not t.phases[0].opponent)
                after = after.play(turn)
                assert after.cells("black") == s.cells("black")
                assert after.dragon("black").water == 4


# ---- sowing ----------------------------------------------------------------------------------
def test_stones_are_dropped_in_stack_order():
    """The lifted stack goes down base stone first. Earth holds WWBBBW (base first): W on
    Mountain, W on Water, B on Wind, Heaven and Lake, W on Fire, so for the black player the
    white opponent acts on Mountain, Water and Fire. The same stones stacked WBBBWW drop W on
    Mountain, B on Water, Wind and Heaven, W on Lake and Fire: white acts on Mountain, Lake,
    Fire.

    > In Spirit phases, all stones on the selected space must be dropped on the
    > following spaces in the order they are stacked, starting from the base of the
    > stack.
    Decision: A28
    """
    s = all_four()
    ea = [str(t) for t in s.legal_turns() if str(t).startswith("Ea")]
    assert ea and all(t.startswith("Ea>Fi (Mo:") for t in ea)
    after = s.play(ea[0])
    # He: B, La: W+B, Fi: W, Mo: W, Wa: B+W, Wi: B (each stack base first)
    assert fields(after)["bagua"] == "B/WB/W/-/-/W/BW/B"
    assert [RING[e] for e, _ in s.parse_turn(ea[0]).phases[0].opponent] == ["Mo", "Wa", "Fi"]
    # The same stones stacked WBBBWW: white acts on Mountain, Lake and Fire.
    flipped = position(
        "d4 c4 b4 a4",
        D("f5 f4 g4 h4", water=3),
        side="b",
        turn=12,
        rules=SOLO,
        bagua={"La": "W", "Ea": "WBBBWW", "Wa": "B"},
    )
    _, group, element = after_sowing(flipped, "Ea")
    assert [RING[g] for g in group] == ["Mo", "La", "Fi"] and RING[element] == "Fi"
    assert {t.split()[1].split(":")[0] for t in turns(flipped) if t.startswith("Ea")} == {"(Mo"}
    assert (
        fields(flipped.play(next(t for t in turns(flipped) if t.startswith("Ea"))))["bagua"]
        == "B/WW/W/-/-/W/BB/B"
    )


def test_monk_priorities_first_then_stack_order():
    """In Monk, the drops that make Focus/Balance imminent come first, using the stone closest
    to the base; the rest follow in stack order, so the player has no choice to write.

    Thunder holds WBWB; Heaven B, Earth BW, Mountain W. Black's Balance becomes imminent only
    with a B on Water (Heaven, Earth and Water one B each; Fire has none) and Earth must not
    get a second B: the arrangements WBBW and WWBB (Earth, Mountain, Water, Wind). The lowest
    B is the second stone; the rest, W W B, go in stack order: WWBB only. The 2-player game
    leaves both to the player.

    > from the Monk game mode onwards, this rule only
    > applies after priorities 1 and 2 from that mode. Stones
    > used to satisfy these priorities must still be the closest
    > possible to the base of their stack.
    > 2) If Focus and Balance effects can be
    > made imminent (3 stones of a color in a
    > single space and 3 main spaces with
    > exactly 1 stone of a color), they must be.
    Decision: A26, A28
    """
    bagua = {"He": "B", "Th": "WBWB", "Ea": "BW", "Mo": "W"}
    solo = position("d4 d3 d2 d1", "g8 h8 h7 g7", bagua=bagua, rules=SOLO_MONK)
    two = position("d4 d3 d2 d1", "g8 h8 h7 g7", bagua=bagua, rules="field/monk/current")
    th = [t for t in turns(solo) if t.startswith("Th")]
    # Earth W, Mountain W, Water B, Wind B: black's Water goes to f8, its Wind is impossible
    # (it faces W); white's Wind turns it to e4 or c4.
    assert th == ["Th>Wi (Wa:f8+ Wi:~) e4", "Th>Wi (Wa:f8+ Wi:~) c4"]
    assert {fields(solo.play(t))["bagua"] for t in th} == {"B/-/-/-/BWW/WW/B/B"}
    assert {t.split()[0] for t in turns(two) if t.startswith("Th")} == {
        "Th/WBBW>Wi",
        "Th/WWBB>Wi",
    }


def test_monk_choice_left_when_the_priorities_need_different_spaces():
    """When the priorities can be met with different stones on different spaces, the player
    chooses, and the drops are written in the turn.

    Mountain holds BWB, dropped on Water, Wind and Heaven; Lake, Fire and Earth hold one W.
    White's Balance becomes imminent with one W on Heaven (BBW) or on Water (WBB). Each uses the
    only W; the Bs follow in stack order.

    > Stones
    > used to satisfy these priorities must still be the closest
    > possible to the base of their stack.
    > If, when resolving priorities 1 or 2, both black and white are required on a single
    > space, the player chooses which color to drop in that space.
    Decision: A26, A28
    """
    s = position(
        "d4 d3 d2 d1",
        "g8 h8 h7 g7",
        rules=SOLO_MONK,
        bagua={"He": "B", "La": "W", "Fi": "W", "Ea": "W", "Mo": "BWB", "Wi": "B"},
    )
    mo = [t for t in turns(s) if t.startswith("Mo")]
    assert mo == [
        "Mo/BBW>He (Wa:f8+ Wi:~) d5",
        "Mo/BBW>He (Wa:f8+ Wi:~) d5,d6",
        "Mo/WBB>He (Wi:~ He:~) d5",
        "Mo/WBB>He (Wi:~ He:~) d5,d6",
    ]
    assert fields(s.play(mo[0]))["bagua"] == "BW/W/W/-/W/-/B/BB"
    assert fields(s.play(mo[2]))["bagua"] == "BB/W/W/-/W/-/W/BB"
    with pytest.raises(IllegalTurnError):
        s.play("Mo/BWB>He d5")  # stack order itself makes nothing imminent


def test_monk_only_the_needed_stones_leave_stack_order():
    """Only the stones the priorities need leave stack order, each the lowest of its colour.

    Fire holds BWWB, dropped on Thunder, Earth, Mountain, Water; Mountain holds BB. The only
    effect within reach is a third B on Mountain (imminent Focus): the B it needs is the base
    stone, and the rest, W W B, go in stack order: WWBB. BWBW also puts a B on Mountain, but
    that B is the top stone, not the closest possible to the base.

    > Stones
    > used to satisfy these priorities must still be the closest
    > possible to the base of their stack.
    Decision: A28
    """
    s = position(
        "d4 d3 d2 d1",
        "g8 h8 h7 g7",
        rules=SOLO_MONK,
        bagua={"Fi": "BWWB", "Mo": "BB", "Wa": "W", "Wi": "W"},
    )
    fi = [t for t in turns(s) if t.startswith("Fi")]
    assert fi and {t.split()[0] for t in fi} == {"Fi>Wa"}
    assert {fields(s.play(t))["bagua"] for t in fi} == {"-/-/-/W/W/BBB/WB/W"}


# ---- the opponent's group ----------------------------------------------------------------------
def test_opponent_acts_on_every_space_with_its_stone_in_drop_order():
    """Black sows Earth: white stones land on Mountain, Water and Fire, in that order, and white
    performs those three actions in that order before black's Matter phase (Fire, the last
    space, which both dragons perform).

    > Before your Matter phase, the opposing dragon performs, in order, all
    > actions from spaces in which its color's pieces were dropped that turn,
    > ignoring impossible actions without incurring penalties.
    Decision: A29
    """
    s = all_four()
    turn = next(t for t in s.legal_turns() if str(t).startswith("Ea"))
    phase = turn.phases[0]
    assert [RING[e] for e, _ in phase.opponent] == ["Mo", "Wa", "Fi"]
    assert RING[phase.element] == "Fi"
    assert str(turn).startswith("Ea>Fi (Mo:d5 Wa:e5x Fi:e6")
    # Mountain d5, Water e5 expels at f5 (2 + 1 water in the centre: black loses its tail),
    # Fire e6; then black's own Fire.
    after = s.play(turn)
    assert fields(after)["white"].startswith("e6-e5-d5-d4")
    assert len(after.cells("black")) == 3 and after.to_move == "black"


def test_last_space_is_performed_by_both_dragons():
    """White sows Lake: its single black stone lands on Fire, the last space. Black performs
    Fire (a5, expel: the ruler's +2f reaches a3, 1 damage), then white performs Fire.

    > Before your Matter phase, the opposing dragon performs, in order, all
    > actions from spaces in which its color's pieces were dropped that turn,
    Decision: A29
    """
    s = p1_decides()
    assert groups(s, "La") == ["(Fi:a5x)"]
    assert [t for t in turns(s) if t.startswith("La")] == [
        "La>Fi (Fi:a5x) b3+",
        "La>Fi (Fi:a5x) b3x",
        "La>Fi (Fi:a5x) a4+",
        "La>Fi (Fi:a5x) a4x",
    ]
    after = s.play("La>Fi (Fi:a5x) a4x")
    # white took 1 (3 -> 2 water), then expelled from a4 at a5 (2 + 2 water in the centre)
    assert pieces(after) == ("a4-a3-a2-a1:2:0", "a5-a6-b6-c6:2:0", "4:8")


def test_impossible_opponent_action_is_skipped_without_penalty():
    """White sows Water: black acts on Wind, Heaven, Lake and Earth. Heaven is impossible
    (after the Wind black faces W or E): written ``~``, skipped, and black loses nothing.

    > ignoring impossible actions without incurring penalties.
    Decision: A29
    """
    s = p2_next_turn("matter")
    # White faces S: Thunder and Earth are impossible for it, so every choice is the penalty.
    assert turns(s) == ["Fi>Th -", "Th>Ea -", "Wa>Ea (Wi:b6 He:~ La:= Ea:a6) -"]
    after = s.play("Wa>Ea (Wi:b6 He:~ La:= Ea:a6) -")
    # black moved but kept its meters; the one water stone in the centre is white's penalty
    assert pieces(after) == ("a3-a2-a1-b1:3:0", "a6-b6-c6-c7:4:0", "1:8")


def test_action_made_impossible_by_an_earlier_action_of_the_group():
    """Black faces N at c6, so Heaven alone would take it to c5; in the group Wind comes first
    and turns it W or E, and then Heaven (vertical only) is impossible and skipped.

    > Before your Matter phase, the opposing dragon performs, in order, all
    > actions from spaces in which its color's pieces were dropped that turn,
    > ignoring impossible actions without incurring penalties.
    Decision: A29, A30
    """
    post, group, element = after_sowing(p2_next_turn("matter"), "Wa")
    assert [RING[g] for g in group] == ["Wi", "He", "La", "Ea"]
    assert notations(opponent_options(post, ["He"], element)) == ["(He:c5)", "(He:c5,c4)"]
    for option in opponent_options(post, group, element):
        assert [RING[e] for e, a in option.actions if a is None] == ["He"]
    # Wind b6 then Lake stays and Earth a6; or Wind d6, Lake stays, Earth e6 (or e6,f6).
    assert sorted(notations(opponent_options(post, group, element))) == [
        "(Wi:b6 He:~ La:= Ea:a6)",
        "(Wi:d6 He:~ La:= Ea:e6)",
        "(Wi:d6 He:~ La:= Ea:e6,f6)",
    ]


def test_focus_and_balance_still_apply():
    """Monk effects resolve before the group. Black sows Mountain: its W makes four whites on
    Water, so white performs Water as a Focus (chosen by its priorities: h5, absorbing, the
    option closest to black and richer in water), then its solo action on Water as well (the
    literal reading): h6 or g5, tied, so both are legal turns.

    White sows Lake: the B on Fire gives one B on each main space, a Balance for black, whose
    meters become white's (1 water, 3 fire) before its Fire action.

    > The dragon
    > of the same color of those four stones must perform that
    > space's action, even if it isn't its turn.
    > The dragon in
    > the color of the four single stones on those spaces must
    > adjust its water stone and fire stone quantities so that
    > they are equal to its opponent's, even if it isn't its turn.
    Decision: A23, A24, A25, A29
    """
    focus = position(
        D("h4 g4 f4 f5", water=3),
        D("a6 a7", water=2, fire=1),
        side="b",
        turn=24,
        rules=SOLO_MONK,
        bagua={"He": "B", "La": "B", "Mo": "W", "Wa": "WBWW", "Wi": "B"},
    )
    mo = [t for t in turns(focus) if t.startswith("Mo")]
    assert {t.split(" a5")[0].split(" b6")[0] for t in mo} == {
        "Mo>Wa {w:h5+} (Wa:h6+)",
        "Mo>Wa {w:h5+} (Wa:g5+)",
    }
    after = focus.play("Mo>Wa {w:h5+} (Wa:h6+) a5+")
    assert pieces(after) == ("h6-h5-h4-g4:4:0", "a5-a6:3:1", "1:7")
    balance = position(
        D("d4 c4 c3 b3", water=1, fire=3),
        D("e4 e5", water=2),
        turn=52,
        rules=SOLO_MONK,
        bagua={"He": "B", "La": "B", "Fi": "W", "Ea": "B", "Mo": "W", "Wa": "B", "Wi": "WW"},
    )
    # Black then acts on Fire: e3 (f4 would put its head in white's line of fire), absorb or
    # expel tied. After absorbing, black holds 1 water and 3 + 1 fire.
    assert groups(balance, "La") == ["(Fi:e3+)", "(Fi:e3x)"]
    assert pieces(balance.play("La>Fi (Fi:e3+) d3+")) == (
        "d3-d4-c4-c3:1:4",
        "e3-e4:1:4",
        "6:0",
    )


@pytest.mark.parametrize("replaces", [False, True])
def test_focus_of_the_opponents_colour_and_its_solo_action(replaces):
    """Option ``solo_focus_replaces_action``: by default (the literal reading) a Focus of the
    opponent's colour and the solo action of that space both happen; with the option the Focus
    replaces the solo action.

    > Before your Matter phase, the opposing dragon performs, in order, all
    > actions from spaces in which its color's pieces were dropped that turn,
    > The dragon
    > of the same color of those four stones must perform that
    > space's action, even if it isn't its turn.
    Decision: A24, A29
    """
    rules = SOLO_MONK + ("+solo_focus_replaces_action=true" if replaces else "")
    s = position(
        D("h4 g4 f4 f5", water=3),
        D("a6 a7", water=2, fire=1),
        side="b",
        turn=24,
        rules=rules,
        bagua={"He": "B", "La": "B", "Mo": "W", "Wa": "WBWW", "Wi": "B"},
    )
    mo = {t.rsplit(" ", 1)[0] for t in turns(s) if t.startswith("Mo")}
    if replaces:
        assert mo == {"Mo>Wa {w:h5+}"}
        assert fields(s.play("Mo>Wa {w:h5+} a5+"))["white"] == "h5-h4-g4-f4:4:0"
    else:
        assert mo == {"Mo>Wa {w:h5+} (Wa:h6+)", "Mo>Wa {w:h5+} (Wa:g5+)"}
    # Other spaces are not affected: sowing Water has no Focus.
    wa = {t.rsplit(" ", 1)[0] for t in turns(s) if t.startswith("Wa")}
    assert wa == {"Wa>Fi (Wi:~ La:= Fi:h5+)", "Wa>Fi (Wi:~ La:= Fi:h5x)"}


# ---- the priorities ----------------------------------------------------------------------------
def test_priority_1_most_damage_to_the_player():
    """Black's Fire can step to a5 or a7 (b6 is its neck). Expelling from a5 facing N reaches
    a3, white's head, on the ruler's +2f (1 damage); absorbing, or anything from a7, deals
    none. a5x is the only option left.

    > 1) The way that deals the most damage to the player's dragon.
    Decision: A30
    """
    post, group, element = after_sowing(p1_decides(), "La")
    options = {o.notation(): o.dealt for o in opponent_options(post, group, element)}
    assert options == {"(Fi:a5x)": 1, "(Fi:a5+)": 0, "(Fi:a7+)": 0, "(Fi:a7x)": 0}
    assert notations(opponent_choices(post, group, element)) == ["(Fi:a5x)"]


def test_priority_2_least_damage_risked_matter():
    """Black's Water can go to c4 or c6 (its water is full and nothing is in range, so absorb
    and expel end alike). White's pending Water: if black is at c4, white steps to c6 facing W
    and its expel reaches b5 (1) plus 2 water in the centre: 3. At c6 black blocks that step
    and white can reach nothing: 0. The default lookahead keeps c6.

    Under ``solo_lookahead="next-turn"`` white can reach 3 in either case by its next turn, so
    priority 2 no longer decides, and priority 3 (4 steps either way) leaves both.

    > 2) The way that the enemy dragon could take the least amount of
    > damage until the end of the next turn.
    Decision: A30
    """
    post, group, element = after_sowing(p2_matter(), "Mo")
    options = {o.notation(): o.risk for o in opponent_options(post, group, element)}
    assert options == {"(Wa:c4+)": 3, "(Wa:c6+)": 0}
    assert notations(opponent_choices(post, group, element)) == ["(Wa:c6+)"]
    assert groups(p2_matter(), "Mo") == ["(Wa:c6+)"]
    post, group, element = after_sowing(p2_matter("next-turn"), "Mo")
    options = opponent_options(post, group, element)
    assert {o.notation(): o.risk for o in options} == {"(Wa:c4+)": 3, "(Wa:c6+)": 3}
    assert {o.risk for o in options} == {risk_next_turn(post, o.position, element) for o in options}
    assert sorted(notations(opponent_choices(post, group, element))) == ["(Wa:c4+)", "(Wa:c6+)"]
    assert groups(p2_matter("next-turn"), "Mo") == ["(Wa:c4+)", "(Wa:c6+)"]


def test_priority_2_least_damage_risked_next_turn():
    """White's Earth is impossible (it faces S), so its pending Matter deals nothing: under
    the default lookahead every option of black risks 0 and priority 3 picks Earth a6 (2 steps
    from facing white at a3). Under ``solo_lookahead="next-turn"`` that option risks 2: next
    turn white sows Lake, black's Fire goes a5 expelling at a3, and white's Fire steps to a4
    and expels at a5 for 2. The options at e6/f6 are out of reach: black keeps Earth e6.

    > 2) The way that the enemy dragon could take the least amount of
    > damage until the end of the next turn.
    Decision: A30
    """
    for look, risks, chosen in (
        ("matter", (0, 0, 0), "(Wi:b6 He:~ La:= Ea:a6)"),
        ("next-turn", (2, 0, 0), "(Wi:d6 He:~ La:= Ea:e6)"),
    ):
        post, group, element = after_sowing(p2_next_turn(look), "Wa")
        options = {o.notation(): o for o in opponent_options(post, group, element)}
        assert [
            options[n].risk
            for n in (
                "(Wi:b6 He:~ La:= Ea:a6)",
                "(Wi:d6 He:~ La:= Ea:e6)",
                "(Wi:d6 He:~ La:= Ea:e6,f6)",
            )
        ] == list(risks)
        assert [options[n].distance for n in sorted(options)] == [2, 6, 7]
        assert notations(opponent_choices(post, group, element)) == [chosen]
    # the witness line: after Ea:a6 and white's penalty, Lake -> Fire next turn
    post, group, element = after_sowing(p2_next_turn(), "Wa")
    a6 = next(o for o in opponent_options(post, group, element) if "a6" in o.notation())
    assert risk_next_turn(post, a6.position, element) == 2


def test_priority_3_shortest_approach():
    """Black's Earth goes to f8 or on to e8, dealing nothing and risking nothing (white's Earth
    is impossible). From e8 facing W: e8-d8-c8-b8, turn N to b7 ... b3 faces b2: 8 steps; from
    f8 one more: 9. Priority 3 keeps Earth f8,e8.

    > 3) The way that is the shortest path to become adjacently facing some
    > part of the player's dragon.
    Decision: A30
    """
    post, group, element = after_sowing(p3_decides(), "Th")
    options = {
        o.notation(): (o.dealt, o.risk, o.distance) for o in opponent_options(post, group, element)
    }
    assert options == {"(Ea:f8,e8)": (0, 0, 8), "(Ea:f8)": (0, 0, 9)}
    assert notations(opponent_choices(post, group, element)) == ["(Ea:f8,e8)"]


def test_priority_1_counts_the_life_the_player_actually_loses():
    """Priority 1 measures life (4 per segment beyond the first, plus water), so it counts the
    life the player loses, capped at what it has; the raw damage of a hit is not an option.

    White (one segment, 1 water: 1 life) sows Lake: black acts on Fire then Water. Fire a5
    expelling at a3 (+2f, no fire stone: 1 damage) defeats white; so does Fire a5 absorbing
    then Water a4 expelling at a3 (+f: 2, plus 3 water in the centre: 5 damage). Both take
    white's 1 life: tied at priority 1 (the raw values 1 and 5 would keep the second alone),
    then at 2 (the player's Matter never comes) and 3 (the player is dead), so both are turns.

    > 1) The way that deals the most damage to the player's dragon.
    Decision: A30
    """
    s = position(
        D("a3 a2", water=1), "a6 b6 c6 c7", rules=SOLO, bagua={"He": "W", "La": "BWWWB", "Wi": "BB"}
    )
    assert s.life("white") == 1 and s.centre[0] == 3
    post, group, element = after_sowing(s, "La")
    dealt = {o.notation(): o.dealt for o in opponent_options(post, group, element)}
    assert dealt["(Fi:a5x)"] == dealt["(Fi:a5+ Wa:a4x)"] == 1
    assert max(dealt.values()) == 1
    kept = notations(opponent_choices(post, group, element, priorities=(1,)))
    assert sorted(kept) == ["(Fi:a5+ Wa:a4x)", "(Fi:a5x)"]
    assert groups(s, "La") == ["(Fi:a5+ Wa:a4x)", "(Fi:a5x)"]


def test_priority_2_counts_the_life_lost_net_of_water_absorbed():
    """Priority 2 measures life too: the opponent's risk is the life it could lose, net of the
    water it absorbs on the way, so an absorb beats an equal alternative that takes no water;
    counting the damage taken without the water is not an option.

    Black (3 water) acts on Water and may go to c4 or c6, absorbing or expelling (a miss: nothing
    in range). At c6 white's pending Water reaches nothing: expelling risks 0, absorbing -1
    (black ends with one more life). Without the water both would risk 0, tied at priority 3
    (the same cell and facing), and the player would choose; net of the water only c6+ is left.

    > 2) The way that the enemy dragon could take the least amount of
    > damage until the end of the next turn.
    Decision: A30
    """
    s = position(
        D("d6 d5 d4", water=2, fire=1),
        D("c5 b5 a5 a6", water=3),
        turn=21,
        rules=SOLO,
        bagua={"La": "B", "Fi": "WWBB", "Mo": "B", "Wa": "WW"},
    )
    post, group, element = after_sowing(s, "Mo")
    options = {o.notation(): o for o in opponent_options(post, group, element)}
    assert {n: o.dealt for n, o in options.items()} == dict.fromkeys(options, 0)
    assert options["(Wa:c6+)"].position.life("black") == s.life("black") + 1
    assert (options["(Wa:c6+)"].risk, options["(Wa:c6x)"].risk) == (-1, 0)
    assert options["(Wa:c6+)"].distance == options["(Wa:c6x)"].distance
    assert {o.risk for o in options.values()} == {
        risk_matter(post, o.position, element) for o in options.values()
    }
    assert notations(opponent_choices(post, group, element)) == ["(Wa:c6+)"]
    assert groups(s, "Mo") == ["(Wa:c6+)"]


def test_priority_3_distance_is_0_once_the_player_is_dead():
    """Once the group has defeated the player, priority 3's approach distance is 0 for every
    option: there is no dragon left to approach.

    After Fire a5 expelling at a3 white is defeated, black's head on a5 facing N: one step
    (a4) from facing white's flipped head, yet its distance is 0, as after Fire a5, Water a4.
    The options that leave white alive keep their real distances: 0 only where black ends on
    a4 facing white's head.

    > 3) The way that is the shortest path to become adjacently facing some
    > part of the player's dragon.
    Decision: A30
    """
    s = position(
        D("a3 a2", water=1), "a6 b6 c6 c7", rules=SOLO, bagua={"He": "W", "La": "BWWWB", "Wi": "BB"}
    )
    post, group, element = after_sowing(s, "La")
    options = {o.notation(): o for o in opponent_options(post, group, element)}
    dead = {n for n, o in options.items() if o.position.is_over()}
    assert dead == {"(Fi:a5x)", "(Fi:a5+ Wa:a4x)"}
    assert fields(options["(Fi:a5x)"].position)["black"].startswith("a5-")
    assert {options[n].distance for n in dead} == {0}
    alive = {n: o.distance for n, o in options.items() if n not in dead}
    assert alive.pop("(Fi:a5+ Wa:a4+)") == 0  # black on a4 facing N faces a3 for real
    assert min(alive.values()) > 0


@pytest.mark.parametrize("look", ["matter", "next-turn"])
def test_all_four_priorities_one_after_the_other(look):
    """Black sows Earth; white acts on Mountain, Water, Fire (black's Matter is Fire too).

    50 options (by hand: Mountain d3 leads to 22 end positions, e4 to 10, d5 to 18).
    1: the most damage is 3: Mountain d5, Water e5 expelling at f5 (2 + 1 water in the
       centre), or Mountain d3, Water e3 expelling at f4 on the side (1 + 1) then Fire f3 or e4
       expelling at g4 / f5 on the side (1). After Mountain d5 Water e5x, Fire goes to e4 or
       e6, absorbing or not: 6 options.
    2 (matter): black's Fire then steps W to e5 when white left it (the d3 options) and
       reaches d4 on the side: 1; after the d5 options it reaches nothing: 0. 4 left.
       (next-turn): the Fire e4 options leave d5 open to black's Water next turn (Mountain ->
       Water: white goes e3, black e6 expels at d5 on the side): 1. 2 left.
    3: from e6 facing S, white faces f5 from f6 in 3 steps (e6-f6 E, f7 S, f6 N: no, e6-e7,
       f7 E, f6 N); from e4 facing N it needs 4 (e3, f2 round to f3 facing S). 2 left.
    4: absorb or expel at e6 (both miss; absorbing takes a fire stone): the player decides.

    > If there are two or more ways the actions could be performed,
    > determine which happens by following these priorities:
    > The priorities must analyze all possible outcomes of the entire group of
    > actions taken by the dragon on that same turn, and not one by one.
    Decision: A30
    """
    post, group, element = after_sowing(all_four(look), "Ea")
    options = opponent_options(post, group, element)
    assert len(options) == 50
    top = [o for o in options if o.dealt == max(x.dealt for x in options)]
    assert sorted(o.notation() for o in top) == [
        "(Mo:d3 Wa:e3x Fi:e4x)",
        "(Mo:d3 Wa:e3x Fi:f3x)",
        *(f"(Mo:d5 Wa:e5x Fi:{f})" for f in ("e4+", "e4x", "e6+", "e6x")),
    ]
    assert {o.dealt for o in top} == {3}
    safe = [o for o in top if o.risk == min(x.risk for x in top)]
    near = [o for o in safe if o.distance == min(x.distance for x in safe)]
    expected_safe = ["e4+", "e4x", "e6+", "e6x"] if look == "matter" else ["e6+", "e6x"]
    assert sorted(o.notation() for o in safe) == [f"(Mo:d5 Wa:e5x Fi:{f})" for f in expected_safe]
    assert [o.notation() for o in near] == ["(Mo:d5 Wa:e5x Fi:e6+)", "(Mo:d5 Wa:e5x Fi:e6x)"]
    assert {o.distance for o in top if "e4" in o.notation() and "d5" in o.notation()} == {4}
    assert notations(opponent_choices(post, group, element)) == notations(near)
    assert groups(all_four(look), "Ea") == ["(Mo:d5 Wa:e5x Fi:e6+)", "(Mo:d5 Wa:e5x Fi:e6x)"]


def test_priorities_judge_the_whole_group():
    """Judged alone, white's Mountain would go to e4 and bite f4 (1 damage, the most a single
    Mountain can do); judged as a group it goes to d5, which lets Water expel at f5 for 3.
    Going e4 first, the group deals at most 2.

    > The priorities must analyze all possible outcomes of the entire group of
    > actions taken by the dragon on that same turn, and not one by one.
    Decision: A9, A30
    """
    post, group, element = after_sowing(all_four(), "Ea")
    assert notations(opponent_choices(post, group[:1], element)) == ["(Mo:e4)"]
    assert {o.notation().split()[0] for o in opponent_choices(post, group, element)} == {"(Mo:d5"}
    best_after_e4 = max(
        o.dealt for o in opponent_options(post, group, element) if o.notation().startswith("(Mo:e4")
    )
    assert best_after_e4 == 2


def test_priority_4_ties_are_separate_legal_turns():
    """Options still tied after priority 3 are separate legal turns, with the group written.

    Black's Fire from g8 can only go to f8 (g7 and h8 hold its body); expelling misses and
    absorbing takes a fire stone: two positions, tied at every priority. At the standard start,
    sowing Earth gives black Mountain (f8) then Water: f7 or e8, both 8 steps from facing white.

    > 4) If there are still two or more options, the player decides.
    Decision: A30
    """
    s = p3_decides()
    la = [t for t in turns(s) if t.startswith("La")]
    assert la == [f"La>Fi (Fi:f8{a}) a3{b}" for a in "+x" for b in "+x"]
    assert len({s.play(t).to_tln() for t in la}) == 4
    assert fields(s.play(la[0]))["black"] == "f8-g8-h8-h7:4:1"
    assert fields(s.play(la[2]))["black"] == "f8-g8-h8-h7:4:0"
    start = solo_game()
    assert groups(start, "Ea") == ["(Mo:f8 Wa:f7+)", "(Mo:f8 Wa:e8+)"]
    post, group, element = after_sowing(start, "Ea")
    assert [o.distance for o in opponent_choices(post, group, element)] == [8, 8]


def test_a_turn_without_its_group_is_ambiguous_when_tied():
    """A turn may leave the group out when the priorities decide it; when they leave a tie,
    leaving it out is ambiguous and names the turns to write instead. A group the priorities
    rule out is illegal.

    > 4) If there are still two or more options, the player decides.
    Decision: A30
    """
    s = p1_decides()
    assert s.play("La>Fi a4x") == s.play("La>Fi (Fi:a5x) a4x")
    assert str(s.parse_turn("La>Fi a4x")) == "La>Fi (Fi:a5x) a4x"
    with pytest.raises(IllegalTurnError):
        s.play("La>Fi (Fi:a7x) a4x")
    start = solo_game()
    with pytest.raises(IllegalTurnError, match="ambiguous") as err:
        start.play("Ea>Wa a3+")
    assert "'Ea>Wa (Mo:f8 Wa:f7+) a3+' or 'Ea>Wa (Mo:f8 Wa:e8+) a3+'" in err.value.reason
    assert start.play("Ea>Wa (Mo:f8 Wa:e8+) a3+").cells("black")[0] == (4, 7)


# ---- turn flow and the end -------------------------------------------------------------------
def test_extra_phases_are_ignored():
    """Landing on Wind or Thunder gives no extra phase in solo: the turn has one phase.

    > The extra phase effects as a result of the Wind and Thunder actions are
    > ignored, as it is always the player's turn.
    Decision: A11
    """
    s = all_four()
    assert [t for t in turns(s) if ">Wi" in t] == ["Wa>Wi g5", "Wa>Wi e5"]
    after = s.play("Wa>Wi g5")
    assert after.to_move == "black" and after.ply == s.ply + 1
    with pytest.raises(IllegalTurnError):
        s.play("Wa>Wi g5 ; La>Fi (Fi:e4x) g6+")
    assert all(len(t.phases) == 1 for t in s.legal_turns())
    two = with_side_rules(s, "field/grasshopper/current")
    assert all(len(t.phases) == 2 for t in two.legal_turns() if str(t).startswith("Wa>Wi"))


def with_side_rules(state: State, rules: str) -> State:
    f = fields(state)
    f["rules"] = rules
    return State(" ".join(f.values()))


def test_a_two_phase_solo_turn_is_explained_as_solo():
    """The reason given for a second phase in solo should say that solo has no extra phases.

    > The extra phase effects as a result of the Wind and Thunder actions are
    > ignored, as it is always the player's turn.
    Decision: A11
    """
    with pytest.raises(IllegalTurnError) as err:
        all_four().play("Wa>Wi g5 ; La>Fi (Fi:e4x) g6+")
    assert "solo" in err.value.reason


def test_player_wins_when_the_opponent_loses_its_last_segment():
    """White's Fire steps to d5 and expels at d6, black's head (2 damage): black, one segment
    with 1 water, is defeated and the game ends.

    > As soon as one of the dragons has lost its third segment, the winner
    > flips the opposing dragon's head, thus ending the game.
    Decision: A14, A31
    """
    s = position(
        "d4 d3 d2 d1", D("d6 e6", water=1), rules=SOLO, bagua={"He": "WW", "Ea": "BBBB", "Wa": "WW"}
    )
    after = s.play("He>Fi d5x")
    assert after.outcome() == Result("white", "black lost its last segment")
    assert after.is_over() and after.legal_turns() == []
    assert not s.play("He>Fi d5+").is_over()


def test_player_loses_during_the_opponents_group():
    """White (one segment, 1 water) sows Lake: black acts on Fire then Water, then white would
    act on Water. Black's Fire a5 expelling at a3 (+2f) defeats white at once: the game ends,
    the rest of the group is not performed, there is no Matter phase (``#``), black wins. (Fire
    a5 absorbing then Water a4 expelling also defeats white: a tie, both written.)

    > As soon as one of the dragons has lost its third segment, the winner
    > flips the opposing dragon's head, thus ending the game.
    Decision: A14, A29
    """
    s = position(
        D("a3 a2", water=1), "a6 b6 c6 c7", rules=SOLO, bagua={"He": "W", "La": "BWWWB", "Wi": "BB"}
    )
    la = [t for t in turns(s) if t.startswith("La")]
    assert la == ["La>Wa (Fi:a5+ Wa:a4x) #", "La>Wa (Fi:a5x) #"]
    after = s.play("La>Wa (Fi:a5x) #")
    assert after.outcome() == Result("black", "white lost its last segment")
    assert fields(after)["black"] == "a5-a6-b6-c6:4:0"  # Water not performed
    assert after.legal_turns() == [] and after.player == "white"
    assert s.parse_turn("La>Wa (Fi:a5x) #").phases[0].ended
    with pytest.raises(IllegalTurnError):
        s.play("La>Wa (Fi:a5x) a4+")


def test_possibility_is_judged_after_the_opponents_group():
    """A10 in solo: a Spirit choice is forbidden when its Matter action has no execution once
    the opponent's group is done.

    White at h5 facing S: sowing Mountain (BW) drops B on Water and W on Wind. Before the
    group, Wind could turn white to g5; but black's Water must step to g5 (its only free cell),
    so the Wind is impossible and Mountain is forbidden. Sowing Water (W on Wind) has no group
    and the Wind to g5 is legal.

    Black at a8 facing S is boxed in by its neck a7 and white's tail b8: its Lake is impossible
    before the group; but sowing Heaven drops W on Lake, white's Lake goes to b7 (biting a7) and
    its tail leaves b8, so black's Lake may step there (and bite c8: white loses its tail).

    > It is forbidden to collect stones from a space that would result in an action that is
    > impossible to complete in the Matter phase, unless there is no other possible option.
    Decision: A10, A31
    """
    s = position(
        D("h5 h4 h3 h2", fire=1),
        D("g4 f4 f3 g3", water=2, fire=3),
        turn=38,
        rules=SOLO,
        bagua={"La": "BB", "Fi": "B", "Ea": "W", "Mo": "BW", "Wa": "W", "Wi": "W"},
    )
    assert turns(s) == ["Ea>Mo =", "Wa>Wi g5", "Wi>He h6", "Wi>He h6,h7"]
    with pytest.raises(IllegalTurnError):
        s.play("Mo>Wi g5")
    post, group, element = after_sowing(s, "Mo")
    assert notations(opponent_options(post, group, element)) == ["(Wa:g5+)", "(Wa:g5x)"]
    s = position(
        D("c7 c8 b8", water=1, fire=3),
        D("a8 a7", fire=2),
        side="b",
        turn=87,
        rules=SOLO,
        bagua={"He": "W", "La": "W", "Fi": "W", "Th": "BB", "Ea": "W", "Mo": "BB"},
    )
    assert [t for t in turns(s) if t.startswith("He")] == ["He>La (La:b7) b8"]
    assert pieces(s.play("He>La (La:b7) b8")) == ("b7-c7:4:3", "b8-a8:3:2", "1:3")


def test_every_choice_impossible_after_the_group_gives_the_penalty():
    """White at a8 facing S, boxed in by its body and black at b8: no choice has a possible
    Matter action even after black's groups (black's neck stays on b8), so every non-empty
    space may be sown, black still performs its group, and white loses 1 life (``-``).

    > It is forbidden to collect stones from a space that would result in an action that is
    > impossible to complete in the Matter phase, unless there is no other possible option.
    > In this situation, ignore the entire Matter phase and lose 1 lifepoint, by
    > returning one water stone to the center of the Ba Gua.
    Decision: A10, A29
    """
    s = position(
        D("a8 a7 a6", water=3, fire=2),
        D("b7 b8 c8 d8", water=1, fire=3),
        turn=32,
        rules=SOLO,
        bagua={"He": "B", "La": "WW", "Fi": "W", "Mo": "BW", "Wa": "B", "Wi": "B"},
    )
    assert turns(s) == [
        "He>La (La:c7) -",
        "La>Th -",
        "Fi>Th -",
        "Mo>Wi (Wa:c7+) -",
        "Wa>Wi (Wi:c7) -",
        "Wi>He (He:b6,b5) -",
    ]
    after = s.play("He>La (La:c7) -")
    assert pieces(after) == ("a8-a7-a6:2:2", "c7-b7-b8-c8:1:3", "5:3")


def test_a_sowing_whose_group_defeats_the_player_rules_out_the_penalty():
    """A sowing after which the opponent's group defeats the player is a legal turn (the
    player loses, ``#``) and counts as a possible choice, so the penalty is not offered.

    White at a8 facing S (one segment, 1 water) is boxed in by its neck and black's head at
    b8, which faces it. Thunder, Heaven, Water and Lake are impossible for white whatever
    black does; only Heaven's stone lands black on Lake, where black stays and bites a8:
    white is defeated. That is the one legal turn: without it every choice would take the
    penalty.

    > It is forbidden to collect stones from a space that would result in an action that is
    > impossible to complete in the Matter phase, unless there is no other possible option.
    > As soon as one of the dragons has lost its third segment, the winner
    > flips the opposing dragon's head, thus ending the game.
    Decision: A10, A14, A29
    """
    s = position(
        D("a8 a7", water=1),
        "b8 c8 c7 c6",
        turn=9,
        rules=SOLO,
        bagua={"He": "B", "Fi": "W", "Ea": "WW", "Wa": "BB", "Wi": "BW"},
    )
    assert turns(s) == ["He>La (La:=) #"]
    after = s.play("He>La (La:=) #")
    assert after.outcome() == Result("black", "white lost its last segment")
    for space in ("Fi", "Ea", "Wa", "Wi"):
        post, group, element = after_sowing(s, space)
        ends = [o.position for o in opponent_choices(post, group, element)] if group else [post]
        for end in ends:  # white alive, its Matter action impossible: only the penalty
            assert not end.is_over()
            assert all(penalty for _, penalty in matter_ends(end, element))


def test_the_turn_count_is_the_players_turns():
    """ "Moves taken" are the player's turns: the turn number grows by one each turn.

    > Record how many moves you've taken to win and try to improve on this
    > during future games.
    Decision: A31
    """
    s = solo_game(player="black", segments=1)
    for n in range(1, 6):
        s = s.play(s.legal_turns()[-1])
        assert s.ply == n and fields(s)["turn"] == str(n + 1) and s.to_move == "black"
