"""Solo positions and independent helpers for the solo tests (test_rules_solo.py,
test_solo_policy.py).

Not a test module. It holds:

- the golden positions of the opponent's priorities, each worked out by hand in the test that
  uses it (cells are named as in the notation: ``a1`` is the top-left cell, rows counted from the
  top, see positions.py);
- :func:`after_sowing`: the board after the player's Spirit phase in the Grasshopper mode, built
  here (base stone first, counterclockwise) and not by the engine, with the opponent's group;
- :func:`matter_ends`: the positions after the player's Matter phase, read from the 2-player
  game (all eight stones on one space land back on it, A12), so the solo code is not used;
- :func:`risk_matter` and :func:`risk_next_turn`: priority 2 computed from those, the
  straightforward way, to check the engine's scores against.
"""

from __future__ import annotations

from positions import RING, D, fields, position

from taolong_lab import State
from taolong_lab.engine.solo import opponent_choices

SOLO = "field/grasshopper/current/solo"
SOLO_NEXT = SOLO + "+solo_lookahead=next-turn"
SOLO_MONK = "field/monk/current/solo"
FIELD_NAMES = ("rules", "board", "white", "black", "bagua", "centre", "side", "turn")
OTHER = {"white": "black", "black": "white"}


def with_fields(state: State, **changes: str) -> State:
    """``state`` with some TLN fields replaced (``rules=...``, ``bagua=...``, ``side=...``)."""
    f = fields(state)
    unknown = set(changes) - set(f)
    assert not unknown, unknown
    f.update(changes)
    return State(" ".join(f[name] for name in FIELD_NAMES))


def lookahead(state: State, value: str) -> State:
    """The same position under ``solo_lookahead=value``."""
    rules = fields(state)["rules"].split("+")[0]
    return with_fields(
        state, rules=rules + ("" if value == "matter" else f"+solo_lookahead={value}")
    )


# ---- golden positions (Grasshopper, The Field) -----------------------------------------------
def all_four(look: str = "matter") -> State:
    """Black to move; white (the opponent) d4 facing E, black f5 facing S with 3 water. Sowing
    Earth (WWBBBW) drops W on Mountain and Water, B on Wind, Heaven, Lake and W on Fire: white's
    group is Mountain, Water, Fire, and black's Matter is Fire. Each priority in turn removes
    options (test_rules_solo.py works them out)."""
    s = position(
        "d4 c4 b4 a4",
        D("f5 f4 g4 h4", water=3),
        side="b",
        turn=12,
        rules=SOLO,
        bagua={"La": "W", "Ea": "WWBBBW", "Wa": "B"},
    )
    return lookahead(s, look)


def p1_decides() -> State:
    """White to move at a3 facing S (3 water); black a6 facing W. Sowing Lake drops B on Fire."""
    return position(
        D("a3 a2 a1 b1", water=3),
        "a6 b6 c6 c7",
        turn=15,
        rules=SOLO,
        bagua={"He": "B", "La": "B", "Fi": "WW", "Th": "WW", "Ea": "B", "Wi": "B"},
    )


def p2_matter(look: str = "matter") -> State:
    """White d6 facing S (2 segments, 2 water, 1 fire); black c5 facing E. Sowing Mountain drops
    B on Water: black's group is Water and white's Matter is Water."""
    s = position(
        D("d6 d5 d4", water=2, fire=1),
        "c5 b5 a5 a6",
        turn=21,
        rules=SOLO,
        bagua={"La": "B", "Fi": "WWBB", "Mo": "B", "Wa": "WW"},
    )
    return lookahead(s, look)


def p2_next_turn(look: str = "next-turn") -> State:
    """White a3 facing S; black c6 facing N. Sowing Water (BBBWWB) drops B on Wind, Heaven,
    Lake, W on Fire and Thunder, B on Earth: black's group is Wind, Heaven, Lake, Earth."""
    s = position(
        "a3 a2 a1 b1",
        "c6 c7 c8 d8",
        turn=14,
        rules=SOLO,
        bagua={"Fi": "W", "Th": "W", "Wa": "BBBWWB"},
    )
    return lookahead(s, look)


def p3_decides() -> State:
    """The start cells; one stone a space but two Ws on Wind. Sowing Thunder drops B on Earth."""
    return position(
        "a2 a1 b1 b2",
        "g8 h8 h7 g7",
        rules=SOLO,
        bagua={"La": "B", "Fi": "W", "Th": "B", "Ea": "W", "Mo": "B", "Wa": "B", "Wi": "WW"},
    )


# ---- independent helpers -------------------------------------------------------------------
def sow_base_first(bagua: tuple[str, ...], space: int):
    """Grasshopper sowing counterclockwise, base stone first: ``(new bagua, targets, element)``;
    ``targets`` pairs each receiving space with the stone it got, in drop order."""
    stack = bagua[space]
    new = list(bagua)
    new[space] = ""
    targets = []
    for j, stone in enumerate(stack, start=1):
        target = (space + j) % len(bagua)
        new[target] += stone
        targets.append((target, stone))
    return tuple(new), tuple(targets), targets[-1][0]


def after_sowing(state: State, space: int | str):
    """``(position after the Spirit phase, opponent's group as ring indices, element)`` for the
    player of the Grasshopper solo ``state`` sowing ``space``."""
    if isinstance(space, str):
        space = RING.index(space)
    bagua, targets, element = sow_base_first(state.bagua, space)
    stone = "W" if OTHER[state.player] == "white" else "B"
    group = [t for t, s in targets if s == stone]
    post = with_fields(state, bagua="/".join(s or "-" for s in bagua))
    return post, group, element


def matter_ends(state: State, element: int) -> list[tuple[State, bool]]:
    """``(position, penalty)`` for every way the player of the solo ``state`` can perform its
    Matter phase of ``element`` (the 1-life penalty if none), through the 2-player game: all
    eight stones on ``element`` land back on it; no extra phase."""
    if state.is_over():
        return [(state, False)]
    f = fields(state)
    scenario, mode, edition = f["rules"].split("+")[0].split("/")[:3]
    stacks = ["-"] * 8
    stacks[element] = "WWWWBBBB"
    two = with_fields(
        state, rules=f"{scenario}/{mode}/{edition}+extra_phases=0", bagua="/".join(stacks)
    )
    return [(after, turn.phases[0].penalty) for turn, after in two.successors()]


def risk_matter(before: State, after_group: State, pending: int) -> int:
    """Priority 2, ``solo_lookahead="matter"``: the opponent's life before its group minus its
    lowest life after the player's pending Matter phase."""
    opp = OTHER[before.player]
    lowest = min(s.life(opp) for s, _ in matter_ends(after_group, pending))
    return before.life(opp) - lowest


def _next_turn_lowest(state: State) -> int:
    """The opponent's lowest life after the player's whole next turn from ``state`` (the
    opponent using priorities 1 and 3 only; A10 as in a real turn)."""
    opp = OTHER[state.player]
    if state.is_over():
        return state.life(opp)
    options = []  # (possible, opponent's life)
    for space in range(8):
        if not state.bagua[space]:
            continue
        post, group, element = after_sowing(state, space)
        if group:
            results = [o.position for o in opponent_choices(post, group, element, (1, 3))]
        else:
            results = [post]
        for r in results:
            if r.is_over():
                options.append((True, r.life(opp)))
                continue
            for s, penalty in matter_ends(r, element):
                options.append((not penalty, s.life(opp)))
    if any(possible for possible, _ in options):
        return min(life for possible, life in options if possible)
    return min(life for _, life in options)


def risk_next_turn(before: State, after_group: State, pending: int) -> int:
    """Priority 2, ``solo_lookahead="next-turn"``: as :func:`risk_matter`, then the player's
    whole next turn from the Ba Gua this turn left."""
    opp = OTHER[before.player]
    solo = fields(after_group)
    keep = {name: solo[name] for name in ("rules", "bagua", "side")}
    ends = [with_fields(s, **keep) for s, _ in matter_ends(after_group, pending)]
    return before.life(opp) - min(_next_turn_lowest(s) for s in ends)
