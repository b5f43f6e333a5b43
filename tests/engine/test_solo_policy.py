"""The solo opponent's policy as pure functions (``taolong_lab.engine.solo``): each priority
alone, the approach distance on hand-made boards, priority 2 against an independent lookahead,
and the agreement between the policy and the legal turns.

The golden positions and the independent helpers are in solo_positions.py; the rules the
policy implements are tested in test_rules_solo.py.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from positions import RING, D, board_of, position
from solo_positions import (
    SOLO,
    after_sowing,
    all_four,
    lookahead,
    p2_matter,
    p2_next_turn,
    p3_decides,
    risk_matter,
    risk_next_turn,
    with_fields,
)
from test_conformance import random_field_position

from taolong_lab import RulesError, State, new_game
from taolong_lab.engine.core import executions
from taolong_lab.engine.solo import (
    UNREACHABLE,
    OpponentOption,
    approach_distance,
    opponent_choices,
    opponent_options,
)


def names(options) -> list[str]:
    return sorted(o.notation() for o in options)


def distance(state) -> int:
    """The opponent's approach distance where it stands (an empty group leaves it there)."""
    (option,) = opponent_options(state, [], priorities=(3,))
    return option.distance


# ---- the functions ---------------------------------------------------------------------------
def test_opponent_options_need_a_solo_position():
    with pytest.raises(RulesError, match="solo"):
        opponent_options(new_game(), ["He"])
    with pytest.raises(RulesError, match="solo"):
        opponent_choices(new_game(), ["He"])


def test_groups_by_abbreviation_name_or_index():
    post, group, element = after_sowing(all_four(), "Ea")
    assert group == [5, 6, 2]
    by_index = names(opponent_options(post, group, element))
    assert names(opponent_options(post, ["Mo", "Wa", "Fi"], "Fi")) == by_index
    assert names(opponent_options(post, ["mountain", "WATER", "fire"], "fire")) == by_index


def test_an_option_is_the_board_after_the_group():
    """Each option carries the position after the group, before the player's Matter phase:
    the player still to move, the Ba Gua as the sowing left it."""
    post, group, element = after_sowing(all_four(), "Ea")
    (option, *_) = opponent_choices(post, group, element)
    assert isinstance(option, OpponentOption)
    assert option.notation() == "(Mo:d5 Wa:e5x Fi:e6+)"
    after = option.position
    assert after.cells("white") == [(4, 5), (4, 4), (3, 4), (3, 3)]  # e6 e5 d5 d4
    assert after.cells("black") == [(5, 4), (5, 3), (6, 3)]  # f5 f4 g4: the tail is lost
    assert after.to_move == after.player == "black"
    assert (after.bagua, after.ply) == (post.bagua, post.ply)
    assert after.dragon("white").fire == 1  # absorbed
    assert [RING[e] for e, _ in option.actions] == ["Mo", "Wa", "Fi"]


def test_scores_of_the_worked_example():
    """The 50 options of the worked example (docs/rules.md R15.7) by damage dealt: 27 deal
    none, 12 deal 1 (a bite at f4, or a side cell of a breath), 5 deal 2, 6 deal 3."""
    post, group, element = after_sowing(all_four(), "Ea")
    options = opponent_options(post, group, element)
    assert len(options) == 50 == len({o.position for o in options})
    assert Counter(o.dealt for o in options) == {0: 27, 1: 12, 2: 5, 3: 6}
    assert Counter(o.risk for o in options) == {0: 12, 1: 28, 2: 10}


# ---- each priority alone ---------------------------------------------------------------------
def test_priority_1_alone():
    """The six options dealing 3 (see test_rules_solo.py, the four priorities in turn)."""
    post, group, element = after_sowing(all_four(), "Ea")
    assert names(opponent_choices(post, group, element, priorities=(1,))) == [
        "(Mo:d3 Wa:e3x Fi:e4x)",
        "(Mo:d3 Wa:e3x Fi:f3x)",
        "(Mo:d5 Wa:e5x Fi:e4+)",
        "(Mo:d5 Wa:e5x Fi:e4x)",
        "(Mo:d5 Wa:e5x Fi:e6+)",
        "(Mo:d5 Wa:e5x Fi:e6x)",
    ]


def test_priority_2_alone():
    """Black's pending Fire steps W to e5 and expels from there (f4 and g5 reach nothing):
    white is safe exactly when it holds e5 itself. With d5 held and e5 free, the ruler's +f
    reaches d5 (2); with only d4 in reach, a side cell (1). Twelve options keep e5: Mountain
    e4 or d5 then Water e5 (absorbing or, from d5, expelling), then Fire e4, e6 or d5."""
    post, group, element = after_sowing(all_four(), "Ea")
    safe = opponent_choices(post, group, element, priorities=(2,))
    assert len(safe) == 12 and {o.risk for o in safe} == {0}
    assert all((4, 4) in o.position.cells("white") for o in safe)  # e5
    assert names(safe) == sorted(
        [f"(Mo:d5 Wa:e5{w} Fi:{f})" for w in "+x" for f in ("e4+", "e4x", "e6+", "e6x")]
        + [f"(Mo:e4 Wa:e5+ Fi:{f})" for f in ("d5+", "d5x", "e6+", "e6x")]
    )
    assert all(
        o.risk > 0
        for o in opponent_options(post, group, element)
        if (4, 4) not in o.position.cells("white")
    )


def test_priority_2_without_a_pending_matter_phase():
    """With no pending Matter phase given, priority 2 counts only what the group costs the
    opponent itself: nothing here."""
    post, group, _ = after_sowing(all_four(), "Ea")
    assert {o.risk for o in opponent_options(post, group)} == {0}


def test_priority_2_counts_what_the_group_costs_the_opponent():
    """On The Valley, black's Lake (it faces N at g6) can step E to h6, W to f6, or N into the
    blue portal g5, paying 1 water, and out beside another portal. Nothing deals damage.
    Through the portal it can land on c2 facing W, one step from facing white's a2, while h6
    and f6 are 3 steps away (through the portal too, costs ignored). Priorities 1 and 3 alone
    would take the portal; priority 2 counts its water: 1 against 0, so h6 or f6 stay."""
    valley = {"rules": "valley/grasshopper/current/solo", "board": board_of("valley")}
    s = position("c1 b1 a1 a2", "g6 g7 h7 h8", **valley)
    options = opponent_options(s, ["La"])
    assert {o.dealt for o in options} == {0}
    assert {o.notation(): o.risk for o in options if "[" not in o.notation()} == {
        "(La:h6)": 0,
        "(La:f6)": 0,
    }
    assert {o.risk for o in options if "[g5" in o.notation()} == {1}
    assert names(opponent_choices(s, ["La"], priorities=(1, 3))) == ["(La:[g5d2]c2)"]
    assert names(opponent_choices(s, ["La"])) == ["(La:f6)", "(La:h6)"]
    assert {o.distance for o in opponent_choices(s, ["La"])} == {3}


def test_priority_3_alone():
    """The closest options end with Fire at e2 facing N: a right turn to f2 then f3 facing S,
    in front of f4 (2 steps). Eight options get there."""
    post, group, element = after_sowing(all_four(), "Ea")
    near = opponent_choices(post, group, element, priorities=(3,))
    assert {o.distance for o in near} == {2}
    assert names(near) == sorted(
        [f"(Mo:d3 Wa:{w} Fi:e2{f})" for w in ("e3x", "e3+", "d2+") for f in "+x"]
        + [f"(Mo:e4 Wa:e3+ Fi:e2{f})" for f in "+x"]
    )


def test_priorities_apply_in_the_order_1_2_3():
    """Any subset may be asked; they always apply in the order 1, 2, 3."""
    post, group, element = after_sowing(all_four(), "Ea")
    full = names(opponent_choices(post, group, element))
    assert names(opponent_choices(post, group, element, priorities=(3, 2, 1))) == full
    assert names(opponent_choices(post, group, element, priorities=(1, 3))) == [
        "(Mo:d3 Wa:e3x Fi:f3x)",
        "(Mo:d5 Wa:e5x Fi:e6+)",
        "(Mo:d5 Wa:e5x Fi:e6x)",
    ]
    assert names(opponent_choices(post, group, element, priorities=(2, 3))) == sorted(
        [f"(Mo:d5 Wa:e5{w} Fi:e6{f})" for w in "+x" for f in "+x"]
        + [f"(Mo:e4 Wa:e5+ Fi:e6{f})" for f in "+x"]
    )
    assert len(opponent_choices(post, group, element, priorities=())) == 50


# ---- priority 2 against an independent lookahead ------------------------------------------------
@pytest.mark.parametrize(
    ("make", "space"),
    [(all_four, "Ea"), (p2_matter, "Mo"), (p2_next_turn, "Wa"), (p3_decides, "Th")],
    ids=["all-four", "p2-matter", "p2-next-turn", "p3"],
)
@pytest.mark.parametrize("look", ["matter", "next-turn"])
def test_risk_matches_an_independent_lookahead(make, space, look):
    """Every option's priority-2 score equals the one computed by playing the player's Matter
    phase (and, under next-turn, its whole next turn) through the public API."""
    s = lookahead(make(), look)
    post, group, element = after_sowing(s, space)
    risk = risk_matter if look == "matter" else risk_next_turn
    for o in opponent_options(post, group, element):
        assert o.risk == risk(post, o.position, element), o.notation()


@pytest.mark.parametrize("look", ["matter", "next-turn"])
def test_risk_matches_on_random_positions(look):
    checked = 0
    for seed in range(400, 1000):
        s = random_solo_position(seed, look)
        if s is None:
            continue
        space = random.Random(seed).choice([i for i in range(8) if s.bagua[i]])
        post, group, element = after_sowing(s, space)
        if not group:
            continue
        risk = risk_matter if look == "matter" else risk_next_turn
        for o in opponent_options(post, group, element):
            assert o.risk == risk(post, o.position, element), (s.to_tln(), space, o.notation())
            checked += 1
        if checked > (150 if look == "next-turn" else 600):
            break
    assert checked > 100


# ---- priority 3: the approach distance -------------------------------------------------------
def test_approach_distance_is_zero_when_already_facing():
    s = position("d4 d3 d2 d1", "d5 d6 d7 d8", rules=SOLO)  # black faces N onto d4
    assert distance(s) == 0


def test_approach_distance_counts_steps_and_turns():
    """Black f6 facing W: N to f5, f4, then a left turn onto e4 faces d4: 3 steps (d5 facing N
    and e4 facing W are each 3 steps away; nothing closer)."""
    s = position("d4 d3 d2 d1", "f6 g6 h6 h7", rules=SOLO)
    assert distance(s) == 3
    # one step further east: 4
    assert distance(position("d4 d3 d2 d1", "g6 h6 h7 h8", rules=SOLO)) == 4


def test_approach_distance_unreachable_when_boxed_in():
    """Black a1 faces W, off the board; the only other way, a2 (left), is white's head."""
    s = position("a2 a3 a4 a5", "a1 b1 c1 d1", rules=SOLO)
    assert distance(s) == UNREACHABLE
    env = s._env
    walk = (s._dragons, s._water, s._fire, s._rocks)
    assert approach_distance(env, walk, 1) == UNREACHABLE
    assert approach_distance(env, walk, 0) == 0  # white's head faces a1


def test_approach_distance_treats_rocks_as_fixed():
    """The Wall's breakable rocks run along the diagonal h1-a8; every path from one side to
    the other crosses it. Black c5 faces the rock d5 with white e5 behind it: no path (a step
    could trample a rock in the game, but the search keeps every tile fixed)."""
    wall = {"rules": "wall/grasshopper/current/solo", "board": board_of("wall")}
    s = position("e5 f5 g5 h5", "c5 b5 a5 a4", **wall)
    assert distance(s) == UNREACHABLE


def test_approach_distance_through_a_portal_on_the_valley():
    """Black c7 faces the green portal b7; its twin is g2, and stepping out south to g3 faces
    white's head on g4: 1 step. Red portals lead to any other portal and their fire cost is
    ignored: black (no fire) at c2 facing the red d2 comes out beside b7 on c7, facing d7."""
    valley = {"rules": "valley/grasshopper/current/solo", "board": board_of("valley")}
    s = position("g4 h4 h5 h6", "c7 d7 e7 f7", **valley)
    assert distance(s) == 1
    s = position("d7 e7 f7 f8", "c2 b2 a2 a3", **valley)
    assert s.dragon("black").fire == 0
    assert distance(s) == 1


def test_approach_distance_through_a_portal_on_the_mist():
    """The Mist's blue portals are twins: black c4 facing N steps into c3 and out of f6 on
    f5, facing f4 where white's head is."""
    mist = {"rules": "mist/grasshopper/current/solo", "board": board_of("mist")}
    s = position("f4 g4 g5 g6", "c4 c5 c6 c7", **mist)
    assert distance(s) == 1


def test_approach_distance_wraps_on_the_torus():
    """On the 6x6 torus, black a3 facing W steps across the edge onto f3 and faces e3."""
    torus = {"rules": "torus/grasshopper/current/solo", "board": board_of("torus")}
    s = position("e3 e4 e5 e6", "a3 b3 c3 d3", **torus)
    assert distance(s) == 1


# ---- the policy and the legal turns agree ------------------------------------------------------
def random_solo_position(seed: int, look: str = "matter"):
    """A random Grasshopper solo position on The Field (None if the game is over)."""
    parts = random_field_position(seed).split()
    parts[0] = SOLO + ("" if look == "matter" else f"+solo_lookahead={look}")
    parts[4] = parts[4].split("@")[0]  # no Master flux coin in Grasshopper
    s = State(" ".join(parts))
    return None if s.is_over() else s


def _possible(option, element: int) -> bool:
    """Whether the player's Matter action has an execution after the group (or the game is
    over, which needs no Matter phase)."""
    after = option.position
    if after.is_over():
        return True
    walk = (after._dragons, after._water, after._fire, after._rocks)
    return bool(executions(after._env, walk, after._to_move, element))


@pytest.mark.parametrize("block", range(4))
def test_legal_turn_groups_are_the_opponent_choices(block):
    """For random non-Monk positions: every legal turn's group is one of the opponent's choices
    after that sowing, and every choice is a legal turn unless A10 rules it out (its Matter
    impossible while another choice is possible)."""
    for seed in range(block * 60, (block + 1) * 60):
        s = random_solo_position(seed, "next-turn" if seed % 5 == 0 else "matter")
        if s is None:
            continue
        legal: dict[int, set] = {}
        penalty = False
        for turn in s.legal_turns():
            phase = turn.phases[0]
            legal.setdefault(phase.space, set()).add(phase.opponent)
            penalty = penalty or phase.penalty
        for space in range(8):
            if not s.bagua[space]:
                continue
            post, group, element = after_sowing(s, space)
            if not group:
                assert legal.get(space, {None}) == {None}
                continue
            choices = opponent_choices(post, group, element)
            assert choices, (s.to_tln(), space)
            offered = {o.actions for o in choices}
            assert legal.get(space, set()) <= offered, (s.to_tln(), space)
            for o in choices:
                if o.actions not in legal.get(space, set()):
                    assert not penalty and not _possible(o, element), (s.to_tln(), space)
                else:
                    assert penalty or _possible(o, element)


def test_random_positions_are_varied():
    """The random positions of the agreement test reach ties, skipped actions, and games that
    end during the group (so the test above is not vacuous)."""
    seen = Counter()
    for seed in range(240):
        s = random_solo_position(seed)
        if s is None:
            continue
        for turn in s.legal_turns():
            text = str(turn)
            seen["~"] += ":~" in text
            seen["#"] += text.endswith("#")
            seen["-"] += text.endswith("-")
        spaces = {}
        for turn in s.legal_turns():
            spaces.setdefault(turn.phases[0].space, set()).add(turn.phases[0].opponent)
        seen["tie"] += any(len(g) > 1 for g in spaces.values())
    assert all(seen[k] > 0 for k in ("~", "#", "-", "tie")), seen


def test_a_focus_of_the_opponent_is_judged_alone():
    """A Focus of the opponent's colour is chosen by its priorities applied to that one action
    (the group comes after): in the Monk example, Water from h4 as a Focus."""
    s = position(
        D("h4 g4 f4 f5", water=3),
        D("a6 a7", water=2, fire=1),
        side="b",
        turn=24,
        rules="field/monk/current/solo",
        bagua={"He": "B", "La": "B", "Mo": "W", "Wa": "WBWW", "Wi": "B"},
    )
    post = with_fields(s, bagua="B/B/-/-/-/-/WBWWW/B")
    # as a one-action group with black's Water pending: h5 absorbing is the only choice
    assert names(opponent_choices(post, ["Wa"], "Wa")) == ["(Wa:h5+)"]
    assert {str(t).split(" (")[0] for t in s.legal_turns() if str(t).startswith("Mo")} == {
        "Mo>Wa {w:h5+}"
    }
