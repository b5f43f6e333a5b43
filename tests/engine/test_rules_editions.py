"""Rules: the two editions of the rulebook, the named options, and what is not implemented.

Quotes on ``> [earlier]`` lines are from the earlier rulebook; the others from the current one.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from positions import EARLIER, RULES, D, fields, only_on, position, turns

from taolong_lab import (
    OPTIONS,
    IllegalTurnError,
    PositionError,
    PuzzleError,
    Rules,
    RulesError,
    State,
    load_puzzles,
    new_game,
    solo_game,
)
from taolong_lab.rules import SOLO_EDITIONS
from taolong_lab.rules.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[2]
START_TURNS = ["He>Fi a3+", "He>Fi a3x", "Ea>Wa a3+", "Ea>Wa a3x", "Wa>He a3", "Wa>He a3,a4"]
EARLIER_START_TURNS = [
    "He>Fi b2+",
    "He>Fi b2x",
    "He>Fi a3+",
    "He>Fi a3x",
    "Ea>Wa b2+",
    "Ea>Wa b2x",
    "Ea>Wa a3+",
    "Ea>Wa a3x",
    "Wa>He a3",
    "Wa>He a3,a4",
]


def test_earlier_edition_has_the_same_start():
    """The earlier edition starts from the same position; only the rules field differs.

    > [earlier] The dragon of the sky plays first.
    > [earlier] Lay 4 water stones on each dragon's life meter.
    """
    current = new_game().to_tln()
    earlier = new_game(edition="earlier").to_tln()
    assert earlier == current.replace(RULES, EARLIER, 1)
    assert earlier.startswith(EARLIER + " ")


def test_earlier_edition_lets_the_head_enter_the_cell_its_tail_leaves():
    """The earlier rulebook lifts the tail first, so from the start coil the head may step
    onto b2, where the tail was: ten legal turns instead of six.

    > [earlier] 1) Take its last segment from the board.
    > [earlier] 2) Place its head according to the movement performed.
    > [earlier] 3) Place the segment previously taken on the space where the head was,
    > flipping and turning the tile in order to connect the head to the body again.
    Decision: A2
    """
    s = new_game(edition="earlier")
    assert turns(s) == EARLIER_START_TURNS
    after = s.play("He>Fi b2+")
    assert fields(after)["white"] == "b2-a2-a1-b1:4:1"
    assert after.facing("white") == "E"


def test_current_edition_forbids_the_cell_the_tail_leaves():
    """The current rulebook places the head first, so the tail's cell is still occupied.

    > 1) Place its head according to the movement performed.
    > 2) Place the tail segment of the dragon on the space where the head was, flipping and
    > turning the tile in order to connect the entire body again.
    Decision: A2
    """
    s = new_game()
    assert turns(s) == START_TURNS
    with pytest.raises(IllegalTurnError) as err:
        s.play("He>Fi b2+")
    assert "Fire allows only a3+, a3x" in err.value.reason


def test_earlier_edition_lake_into_the_tail_cell():
    """The same for a free move of Lake: b2 (the tail) is a legal destination only in the
    earlier edition.

    > [earlier] 1) Take its last segment from the board.
    Decision: A2
    """
    cur = position("a2 a1 b1 b2", "g8 h8 h7 g7", bagua=only_on("La"))
    old = position("a2 a1 b1 b2", "g8 h8 h7 g7", bagua=only_on("La"), rules=EARLIER)
    assert turns(cur) == ["La>La a3"]
    assert turns(old) == ["La>La b2", "La>La a3"]
    assert fields(old.play("La>La b2"))["white"] == "b2-a2-a1-b1:4:0"


@pytest.mark.parametrize(
    ("edition", "value", "expected"),
    [
        ("current", True, EARLIER_START_TURNS),
        ("earlier", False, START_TURNS),
        ("current", None, START_TURNS),
        ("earlier", None, EARLIER_START_TURNS),
    ],
)
def test_tail_vacates_first_option_overrides_the_edition(edition, value, expected):
    """Option ``tail_vacates_first`` (default None = follow the edition) chooses the reading
    of A2 whatever the edition; a non-default value is recorded in the rules field.

    > [earlier] 1) Take its last segment from the board.
    > [current] 1) Place its head according to the movement performed.
    Decision: A2
    """
    s = new_game(edition=edition, tail_vacates_first=value)
    assert turns(s) == expected
    token = fields(s)["rules"]
    if value is None:
        assert token == f"field/grasshopper/{edition}"
    else:
        assert token == f"field/grasshopper/{edition}+tail_vacates_first={str(value).lower()}"


@pytest.mark.parametrize("rules", [RULES, EARLIER])
def test_never_onto_the_neck(rules):
    """A one-segment dragon's tail is its neck: even when the tail is lifted first, the head
    cannot step back onto it.

    > [earlier] 3) Place the segment previously taken on the space where the head was,
    > flipping and turning the tile in order to connect the head to the body again.
    Decision: A2, A5
    """
    s = position("d4 d3", "g8 h8 h7 g7", bagua=only_on("Fi"), rules=rules)
    assert [t for t in turns(s) if t.endswith("+")] == ["Fi>Fi e4+", "Fi>Fi d5+", "Fi>Fi c4+"]


def test_earlier_edition_still_makes_absorb_or_expel_compulsory():
    """The earlier rulebook says the player "may" absorb or expel; the engine follows the
    current wording (a choice between the two) in both editions.

    > [earlier] After it, the player may choose between absorbing or expelling the given
    > element.
    > [current] After moving, the player chooses between absorbing or expelling fire.
    Decision: A13
    """
    s = new_game(edition="earlier")
    with pytest.raises(IllegalTurnError):
        s.play("He>Fi a3")
    assert {t.split()[1][-1] for t in turns(s) if t.startswith("He>Fi")} == {"+", "x"}


@pytest.mark.parametrize(
    ("white", "black"),
    [
        ("d4 d3 d2 d1", "d6 e6 f6 g6"),
        ("d5 c5 b5 a5", "d3 e3 f3 g3"),
        (D("d6 d7 d8 e8", fire=2), "c4 c3 d3 d2"),
        ("a8 a7 a6 a5", "b8 c8 d8 e8"),
    ],
)
@pytest.mark.parametrize("element", ["He", "La", "Fi", "Th", "Ea", "Mo", "Wa", "Wi", None])
def test_editions_agree_when_no_tail_is_beside_the_head(white, black, element):
    """Apart from A2, both editions play the same rules: where no tail is next to the head,
    the legal turns and the positions they lead to are identical.

    > [earlier] Regarding **movement**, any dragon tile, edge of the board or rock tile is an
    > insurmountable obstacle.
    > [current] Regarding movement, the edges of the board, all dragon, rock and village tiles
    > and all portals that for any reason don't have available destinations are insurmountable
    > obstacles.
    """
    bagua = None if element is None else only_on(element)
    cur = position(white, black, bagua=bagua)
    old = position(white, black, bagua=bagua, rules=EARLIER)
    assert turns(cur) == turns(old)
    for (_, a), (_, b) in zip(cur.successors(), old.successors(), strict=True):
        assert a.to_tln().replace(RULES, EARLIER, 1) == b.to_tln()


def test_named_options_and_their_defaults():
    """The rule options, each one reading of an ambiguity, with the adopted default.

    > At the end of any Heaven, Earth, Wind, Thunder, Lake, or Mountain action, if the active
    > dragon's head is adjacently facing any part of its opponent, a bite occurs.
    > Additional Wind or Thunder actions as a result of these extra phases do not generate
    > further extra phases.
    > [earlier] 1) Take its last segment from the board.
    Decision: A2, A7, A11
    """
    summary = {n: (o.default, o.choices, o.source) for n, o in OPTIONS.items()}
    assert summary == {
        "tail_vacates_first": (None, (None, True, False), "A2"),
        "bite_on_stay": (True, (True, False), "A7"),
        "village": (None, (None, "white", "black"), "A22"),
        "extra_phases": (1, (0, 1), "A11"),
        "solo_lookahead": ("matter", ("matter", "next-turn"), "A30"),
        "solo_focus_replaces_action": (False, (False, True), "A29"),
    }
    with pytest.raises(RulesError):
        new_game(bite_on_stay="yes")
    with pytest.raises(RulesError):
        new_game(no_such_option=True)
    with pytest.raises(RulesError):
        new_game(edition="first")


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"solo_lookahead": "next-turn"}, RulesError),
        ({"scenario": "moon"}, RulesError),
        ({"scenario": "gorge", "edition": "earlier"}, RulesError),
        ({"scenario": "torus", "village": "white"}, RulesError),
    ],
)
def test_impossible_variants_are_refused(kwargs, error):
    """Solo options need the solo variant, unknown scenarios do not exist, the earlier
    edition's components build only The Field and The Valley, and the Village is played only
    on The Field, The Valley and The Mist: all are refused rather than played wrongly.

    > The Village is a game variant that may be used on The Field, The Valley and The Mist
    > scenarios.
    """
    with pytest.raises(error):
        new_game(**kwargs)


def test_the_earlier_rulebook_has_no_solo_variant(tmp_path):
    """The solo variant came with the current rulebook; the earlier one has none, so asking for
    it with the earlier edition is refused, wherever it is asked: the rules value, a game, a
    rules token, a position and a puzzle file.

    > The solo variant plays exactly like the 2-player game with the
    > following exceptions:
    """
    assert SOLO_EDITIONS == ("current",)
    message = "the earlier rulebook has no solo variant; it needs the current edition"
    with pytest.raises(RulesError, match=message):
        Rules(solo=True, edition="earlier")
    for refused in (
        lambda: solo_game(edition="earlier"),
        lambda: solo_game("valley", "monk", edition="earlier"),
        lambda: new_game(solo=True, edition="earlier"),
        lambda: Rules.from_token("field/grasshopper/earlier/solo"),
    ):
        with pytest.raises(RulesError, match=message):
            refused()
    assert new_game(edition="earlier").rules.edition == "earlier"  # two players: fine
    tln = solo_game().to_tln().replace("/current/solo", "/earlier/solo", 1)
    with pytest.raises(PositionError) as info:
        State.from_tln(tln)
    assert info.value.field == "rules"
    lines = ROOT.joinpath("puzzles", "rulebook-solo.jsonl").read_text(encoding="utf-8")
    doc = next(d for d in map(json.loads, lines.splitlines()) if d["id"] == "field-white")
    doc["rules"]["edition"] = "earlier"
    doc["start"] = doc["start"].replace("/current/solo", "/earlier/solo", 1)
    path = tmp_path / "earlier.jsonl"
    path.write_text(json.dumps(doc) + "\n", encoding="utf-8")
    with pytest.raises(PuzzleError, match=r"earlier\.jsonl:1: rules: the earlier rulebook"):
        load_puzzles(path)


@pytest.mark.parametrize("mode", ["monk", "master"])
def test_the_earlier_edition_uses_the_current_drop_priorities(mode):
    """The earlier rulebook's Monk mode gives no rule for which colour is dropped where; the
    engine applies the current edition's drop priorities in both editions (A26). White's tail
    is far from its head, so the two editions' movement agrees and the turns are the same.

    > [earlier] This mode adds to the game the dynamics between white and black stones and
    > their respective dragons.
    > [current] 1) If Focus and Balance effects can be triggered, they must be.
    > 2) If Focus and Balance effects can be made imminent (3 stones of a color in a single
    > space and 3 main spaces with exactly 1 stone of a color), they must be.
    Decision: A26
    """
    black = "g8 h8 h7 g7"
    for stacks, sown in (
        ("BW/WWW/-/-/BB/-/B/-", {"He/WB>Fi"}),  # W on Lake: four whites, a Focus
        ("BW/WW/-/-/BB/-/BW/-", {"He/WB>Fi"}),  # W on Lake: three whites, imminent
        ("WB/-/-/-/BB/W/WB/W", {"He/BW>Fi", "He/WB>Fi"}),  # neither: the player chooses
    ):
        ring = ("He", "La", "Fi", "Th", "Ea", "Mo", "Wa", "Wi")
        bagua = {k: v for k, v in zip(ring, stacks.split("/"), strict=True) if v != "-"}
        by_edition = {}
        for edition in ("current", "earlier"):
            flux = "ccw" if mode == "master" else None
            rules = f"field/{mode}/{edition}"
            s = position("d4 d3 d2 d1", black, bagua=bagua, rules=rules, flux=flux)
            by_edition[edition] = turns(s)
            assert {t.split()[0] for t in by_edition[edition] if t.startswith("He")} == sown
        assert by_edition["earlier"] == by_edition["current"]


def test_the_earlier_introductory_scenario_is_the_field_by_inference():
    """The earlier rulebook names an "Introductory" scenario and The Valley, its pictures
    lost. The Introductory scenario is taken to be The Field, by inference: the earlier box
    holds one rock and four portals, the Valley uses them all, and The Field (no tiles, the
    current rulebook's first scenario) is the only one that needs none. The earlier edition
    builds The Field with the same layout as the current one; its file labels the layout and the
    Introductory reading inferred.

    > [earlier] Introductory
    > [earlier] 1 Rock tile
    """
    field = load_scenario("field")
    text = ROOT.joinpath("data", "scenarios", "field.toml").read_text(encoding="utf-8")
    assert '"Introductory" scenario is taken to be this one, by inference' in text
    assert field.editions == ("current", "earlier")
    assert field.status.startswith("inferred")
    earlier, current = new_game("field", edition="earlier"), new_game("field")
    assert fields(earlier)["board"] == fields(current)["board"] == "8/8/8/8/8/8/8/8"
