"""docs/rules.md R15.7, the worked solo turn, agrees with the engine: the position, the
counts at each priority, the score table (read from the doc) and the legal turns it names."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from taolong_lab import State
from taolong_lab.engine.solo import opponent_choices, opponent_options

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
TLN = (
    "field/grasshopper/current/solo 8/8/8/8/8/8/8/8 d4-c4-b4-a4:4:0 f5-f4-g4-h4:3:0 "
    "-/W/-/-/WWBBBW/-/B/- 1:8 b 12"
)
GROUP, PENDING = ["Mo", "Wa", "Fi"], "Fi"


def _section() -> str:
    text = DOC.read_text(encoding="utf-8")
    return text[text.index("### R15.7") : text.index("## 16.")]


def _after_sowing(lookahead: str) -> State:
    """The example's position once Earth is sown: the opponent acts on this board."""
    parts = TLN.split()
    if lookahead != "matter":
        parts[0] += f"+solo_lookahead={lookahead}"
    parts[4] = "B/WB/W/-/-/W/BW/B"
    return State(" ".join(parts))


def _table() -> dict[str, tuple[int, int, int, int]]:
    rows = re.findall(
        r"^\s*\| `(\([^`]*\))` \| (\d+) \| (\d+) \| (\d+) \| (\d+) \|$", _section(), re.M
    )
    return {group: tuple(map(int, scores)) for group, *scores in rows}


def test_worked_example_matches_the_docs():
    section = _section()
    assert TLN in section
    start = State(TLN)
    assert start.player == "black"
    ea_turns = {str(t) for t in start.legal_turns() if t.phases[0].space == 4}
    for named in re.findall(r"`(Ea>Fi \([^`]*\) [a-h]\d[+x])`", section):
        assert named in ea_turns, named

    options = {
        la: {o.notation(): o for o in opponent_options(_after_sowing(la), GROUP, PENDING)}
        for la in ("matter", "next-turn")
    }
    assert len(options["matter"]) == 50
    counts = Counter(o.dealt for o in options["matter"].values())
    assert counts == {0: 27, 1: 12, 2: 5, 3: 6}

    table = _table()
    assert len(table) == 6
    top = {g for g, o in options["matter"].items() if o.dealt == 3}
    assert set(table) == top
    for group, (dealt, risk_matter, risk_next, distance) in table.items():
        m, n = options["matter"][group], options["next-turn"][group]
        assert (m.dealt, m.risk, m.distance) == (dealt, risk_matter, distance), group
        assert (n.dealt, n.risk) == (dealt, risk_next), group

    for la in ("matter", "next-turn"):
        left = [o.notation() for o in opponent_choices(_after_sowing(la), GROUP, PENDING)]
        assert left == ["(Mo:d5 Wa:e5x Fi:e6+)", "(Mo:d5 Wa:e5x Fi:e6x)"]
    after_p2 = opponent_choices(_after_sowing("matter"), GROUP, PENDING, priorities=(1, 2))
    assert len(after_p2) == 4
    after_p2_next = opponent_choices(_after_sowing("next-turn"), GROUP, PENDING, priorities=(1, 2))
    assert len(after_p2_next) == 2
