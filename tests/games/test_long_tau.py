"""Long Tau (docs/games/long-tau.md): one test per rule sentence of the rulebook, a position
where the rule applies and one where it must not; the options; the inferred board and its
data file; hostile position strings; invariants of random play; and the endgame tables
against a depth-limited minimax. The shared conformance suite runs in
tests/games/test_game_conformance.py."""

from __future__ import annotations

import copy
import doctest
import os
import random
import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taolong_lab.errors import DataError, TaoLongError
from taolong_lab.games import GameError, game
from taolong_lab.games.long_tau import LONG_TAU, PASS, LongTauState, long_tau_board
from taolong_lab.games.long_tau.board import read_board
from taolong_lab.games.long_tau.endgames import DRAWN, LOST, WON, endgame, minimax
from taolong_lab.games.long_tau.rules import EMPTY
from taolong_lab.rules.data import load_toml

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "games" / "long-tau.md"
SEEDS = Path(os.environ.get("TAOLONG_RULEBOOKS", "") or ROOT / "no-rulebooks")
RULEBOOK = next(
    (SEEDS / n for n in ("long-tau.txt", "003_5e05df759f08b249.txt") if (SEEDS / n).is_file()),
    SEEDS / "long-tau.txt",
)


def position(north="", south="", to=0, pending=-1, ply=0, **options) -> LongTauState:
    """A hand-built position: each colour's pawns as square names (``north``: colour 0,
    ``south``: colour 1)."""
    second = "east" if options.get("players") == 4 else "south"  # colour 1
    composed = LONG_TAU.compose(
        {"north": north, second: south}, to, None if pending < 0 else "north", **options
    )
    return LongTauState(composed.settings, composed.cells, to, pending, ply)


def moves(state, square: str) -> set[str]:
    return {str(a) for a in state.legal_actions() if str(a).startswith(square + "-")}


def on(state, colour=None) -> set[str]:
    board = state.settings.board
    return {
        board.name(i)
        for i, held in enumerate(state.cells)
        if held != EMPTY and colour in (None, held)
    }


# ---- the board --------------------------------------------------------------------------------
def test_four_areas_of_22_squares_joined_by_lines_around_a_two_by_two_chair():
    board = long_tau_board()
    assert sorted(len(squares) for squares in board.areas.values()) == [22, 22, 22, 22]
    assert sorted(board.cells[i] for i in board.chair) == [(5, 5), (5, 6), (6, 5), (6, 6)]
    for name, squares in board.areas.items():  # each area reaches the chair along a line
        assert any(set(board.neighbours[s]) & set(board.chair) for s in squares), name
    assert len(board.cells) == 4 * 22 + 4


def test_the_board_file_marks_every_fact_inferred_and_a_bad_one_names_its_field():
    doc = load_toml("games/long-tau/board.toml")
    sections = [doc["grid"], doc["lines"], doc["chair"], *doc["areas"].values()]
    assert all(s["inferred"] is True and s["reason"] for s in sections)
    broken = copy.deepcopy(doc)
    broken["areas"]["east"]["rectangles"][0] = [10, 11, 3, 9]  # 24 squares
    with pytest.raises(DataError, match=r"areas\.east"):
        read_board(broken)
    broken = copy.deepcopy(doc)
    broken["chair"]["inferred"] = False
    with pytest.raises(DataError, match=r"chair\.inferred"):
        read_board(broken)
    broken = copy.deepcopy(doc)
    del broken["grid"]["size"]
    with pytest.raises(DataError, match=r"grid\.size"):
        read_board(broken)


# ---- set-up and turns -------------------------------------------------------------------------
def test_two_players_use_two_opposite_areas_with_22_pawns_each():
    start = LONG_TAU.new()
    board = start.settings.board
    for colour, area in ((0, "north"), (1, "south")):
        assert {i for i, held in enumerate(start.cells) if held == colour} == set(board.areas[area])
    assert all(start.cells[i] == EMPTY for i in board.areas["east"] + board.areas["west"])


def test_each_player_has_his_own_colour():
    start = LONG_TAU.new()
    assert start.settings.colours == 2 and start.settings.colour(0) != start.settings.colour(1)
    assert "X north, O south" in start.text()


def test_the_first_player_starts_and_turns_alternate():
    state = LONG_TAU.new()
    assert state.current_player() == 0
    state = state.apply("f8-f6")
    assert state.current_player() == 1
    state = state.apply(state.legal_actions()[0])
    assert state.current_player() == 0


# ---- movement ---------------------------------------------------------------------------------
def test_a_pawn_slides_as_far_as_it_can_to_the_end_of_the_line():
    state = position(north="d12", south="a4")
    assert moves(state, "d12") == {"d12-i12", "d12-d1"}  # never a stop half way
    state = position(north="a6", south="d1")
    assert moves(state, "a6") == {"a6-l6", "a6-a9", "a6-a4"}  # row 6 runs through the chair


def test_option_lines_within_ends_a_line_where_its_squares_end():
    assert moves(position(north="d12", south="a4", lines="within"), "d12") == {
        "d12-i12",
        "d12-d11",
    }
    start = LONG_TAU.new(lines="within")
    assert sorted(str(a) for a in start.legal_actions()) == ["f8-f6", "g8-g6"]


def test_a_pawn_stops_at_the_first_pawn_its_own_or_the_opponents():
    assert "a6-c6" in moves(position(north="a6 d6", south="d1"), "a6")
    assert "a6-c6" in moves(position(north="a6", south="d6"), "a6")
    assert "a6-l6" in moves(position(north="a6", south="d1"), "a6")


def test_jumping_over_a_pawn_is_not_allowed():
    state = position(north="a6 b6", south="a5 a7")
    assert moves(state, "a6") == set()  # boxed in along every line it stands on
    assert moves(position(north="a6", south="a5 a7"), "a6") == {"a6-l6"}


def test_option_chair_stop_ends_a_slide_on_the_first_chair_square():
    assert "f8-f1" in moves(position(north="f8", south="a4"), "f8")
    stop = position(north="f8", south="a4", chair="stop")
    assert "f8-f7" in moves(stop, "f8") and "f8-f1" not in moves(stop, "f8")
    assert "f7-f1" in moves(position(north="f7", south="a4", chair="stop"), "f7")


# ---- sieges -----------------------------------------------------------------------------------
def test_a_besieged_pawn_is_removed_on_the_besiegers_next_turn_and_it_then_moves():
    state = position(north="e11 f10 e7", south="e10 d1")
    assert state.removals() == ()
    state = state.apply("e7-e9")  # e10 is now surrounded on its three lines
    assert state.current_player() == 1 and state.removals() == ()
    assert "e10" in on(state, 1) and moves(state, "e10") == set()
    state = state.apply("d1-i1")
    board = state.settings.board
    assert state.removals() == (board.names["e10"],)
    after = state.apply("e11-e12" if "e11-e12" in moves(state, "e11") else "f10-f11")
    assert "e10" not in on(after) and after.current_player() == 1


def test_three_pawns_besiege_at_the_edge_four_in_the_open_and_fewer_do_not():
    edge = position(north="e11 f10 e9", south="e10 d1", to=0)
    assert edge.removals() == (edge.settings.board.names["e10"],)
    three = position(north="f11 g10 f9", south="f10 d1", to=0)
    assert three.removals() == ()
    four = position(north="f11 g10 f9 e10", south="f10 d1", to=0)
    assert four.removals() == (four.settings.board.names["f10"],)


def test_an_own_pawn_that_can_still_move_breaks_the_siege():
    state = position(north="e11 f10 h4", south="e10 e9 d1", to=0)  # e9 can still slide
    own = position(north="e11 f10 h4", south="e10 e9 d1", to=1)
    assert moves(own, "e9") == {"e9-l9", "e9-e1", "e9-a9"}
    assert state.removals() == ()


def test_a_whole_group_besieged_is_removed_together():
    state = position(north="e11 f10 f9 e7 b9", south="e10 e9 d1", to=0)
    board = state.settings.board
    assert state.removals() == tuple(sorted((board.names["e10"], board.names["e9"])))
    assert on(state.apply(state.legal_actions()[0]), 1) == {"d1"}


def test_pawns_not_surrounded_by_the_player_to_move_wait_for_their_besieger():
    state = position(north="e11 f10 e9", south="e10 d1", to=1)  # south to move: its own pawn
    assert state.removals() == ()


# ---- the Golden Chair -------------------------------------------------------------------------
def test_occupying_the_four_chair_squares_removes_four_farthest_enemy_pawns_next_turn():
    state = position(north="f7 g7 f6 l6", south="a4 d1 l4 d2 f1", to=0)
    after = state.apply("l6-g6")
    assert after.pending == 0 and after.removals() == ()  # not on the opponent's turn
    later = after.apply(after.legal_actions()[0])
    removed = {later.settings.board.name(i) for i in later.removals()}
    assert len(removed) == 4 and removed <= on(later, 1)
    done = later.apply(later.legal_actions()[0])
    assert done.pending == -1 and len(on(done, 1)) == 1


def test_farthest_is_measured_by_the_option():
    pawns = {"north": "f7 g7 f6 g6", "south": "a4 d1 l4 d2 e2", "to": 0, "pending": 0}
    euclid = position(**pawns)
    steps = position(**pawns, farthest="steps")
    names = euclid.settings.board.names
    assert set(euclid.removals()) == {names[n] for n in ("a4", "d1", "l4", "d2")}  # d2: 5.1
    assert set(steps.removals()) == {names[n] for n in ("a4", "d1", "l4", "e2")}  # e2: 4 steps
    assert position(**{**pawns, "pending": -1}).removals() == ()


def test_to_remove_again_a_chair_pawn_must_leave_and_come_back():
    held = position(north="f7 g7 f6 g6 a9", south="d1 i1", to=0)
    assert held.apply("a9-a4").pending == -1  # holding the chair is not completing it
    left = position(north="f7 g7 f6 g6", south="d1 i1", to=0).apply("g7-g12")
    assert left.pending == -1
    back = left.apply("d1-h1").apply("g12-g7")
    assert back.pending == 0


def test_the_opponent_may_take_a_chair_square_left_empty():
    held = position(north="f7 g7 f6 g6", south="l7 d1", to=1)
    assert "l7-h7" in moves(held, "l7")
    left = position(north="f7 g7 f6 g6", south="l7 d1", to=0).apply("g7-g12")
    assert "l7-g7" in moves(left, "l7")


# ---- the end ----------------------------------------------------------------------------------
def test_the_first_player_without_pawns_on_the_board_loses():
    over = position(north="e11 f10 e9 a4", south="e10", to=0)
    assert over.is_terminal() and over.returns() == (1.0, -1.0)
    assert over.legal_actions() == []
    going = position(north="e11 f10 a4", south="e10", to=0)
    assert not going.is_terminal()


def test_a_player_who_cannot_move_passes():
    state = position(north="e11 f10 e9 a4", south="e10", to=1)
    assert state.legal_actions() == [PASS] and str(PASS) == "pass"
    assert state.apply("pass").is_terminal()


def test_option_limit_ends_the_game_decided_by_the_pawns_left():
    state = position(north="a4 d1", south="l4", ply=10, limit=10)
    assert state.is_terminal() and state.returns() == pytest.approx((1 / 3, -1 / 3))
    assert not position(north="a4 d1", south="l4", ply=9, limit=10).is_terminal()
    assert not position(north="a4 d1", south="l4", ply=500, limit=0).is_terminal()


# ---- four players -----------------------------------------------------------------------------
def test_four_players_start_with_12_pawns_on_the_squares_nearest_their_edge():
    start = LONG_TAU.new(players=4)
    board = start.settings.board
    assert start.player_names() == ("north", "east", "south", "west")
    for player, area in enumerate(("north", "east", "south", "west")):
        colour = start.settings.colour(player)
        mine = {i for i in board.areas[area] if start.cells[i] == colour}
        assert mine == set(board.homes[area]) and len(mine) == 12
        assert all(board.cells[i][1] in (0, 1) for i in board.homes["north"])


def test_opposite_players_are_partners_with_one_colour_48_pawns_in_two_sets_of_24():
    start = LONG_TAU.new(players=4)
    assert start.settings.colour(0) == start.settings.colour(2) != start.settings.colour(1)
    assert [start.pawns(c) for c in range(start.settings.colours)] == [24, 24]
    assert any(str(a).startswith(("e2-", "f2-", "g2-", "h2-")) for a in start.legal_actions())
    over = position(north="e11 f10 e9", south="e10", to=2, players=4)
    assert over.is_terminal() and over.returns() == (1.0, -1.0, 1.0, -1.0)


def test_option_each_plays_four_colours_and_the_first_without_pawns_loses():
    start = LONG_TAU.new(players=4, four="each")
    assert [start.pawns(c) for c in range(4)] == [12, 12, 12, 12]
    assert not any(str(a).startswith("e2-") for a in start.legal_actions())
    cells = list(start.cells)
    board = start.settings.board
    for i in board.homes["east"] + (board.names["d12"], board.names["i12"]):
        cells[i] = EMPTY
    cells[board.names["e10"]] = 1
    for name in ("e11", "f10", "e9"):
        cells[board.names[name]] = 0
    state = LongTauState(start.settings, tuple(cells), 0, -1, 0)
    assert (
        state.problems() == []
        and state.is_terminal()
        and state.returns() == (1 / 3, -1.0, 1 / 3, 1 / 3)
    )


def test_option_sides_closed_keeps_only_the_two_used_areas():
    closed = LONG_TAU.new(sides="closed")
    assert len(closed.settings.board.cells) == 48
    assert "a6" not in closed.settings.board.names
    assert moves(position(north="f6", south="d1", sides="closed"), "f6") == {
        "f6-g6",
        "f6-f12",
        "f6-f1",
    }
    assert "f6-l6" in moves(position(north="f6", south="d1"), "f6")
    with pytest.raises(GameError, match="sides"):
        LONG_TAU.new(players=4, sides="closed")
    with pytest.raises(GameError, match="four"):
        LONG_TAU.new(four="each")


def test_with_partners_a_chair_removal_belongs_to_the_player_who_made_it():
    """> If a player, during his turn, is able to occupy the 4 squares of the Golden Chair,
    > then he, on his next turn, can remove 4 opponent's pawns situated the furthest from the
    > Golden Chair."""
    state = LONG_TAU.compose(
        {"north": "f7 g7 f6 g2", "east": "a4 a5 l4 l5 d1 e2 k7"}, to=0, players=4
    )
    made = state.apply("g2-g6")  # north completes the chair: the removal is north's
    assert made.pending == 0 and made.removals() == ()
    east = made.apply("k7-h7")
    assert east.to == 2 and east.removals() == ()  # south, north's partner, removes nothing
    north = east.apply("g7-g12").apply("a5-a9")  # south, west
    assert north.to == 0 and north.pending == 0 and len(north.removals()) == 4
    assert {north.settings.board.name(i) for i in north.removals()} <= on(north, 1)
    assert north.apply(north.legal_actions()[0]).pending == -1


def test_with_partners_a_siege_is_removed_on_the_besiegers_next_turn():
    """> When a player succeeds in completely surrounding an opponent's pawn, on his next
    > turn, that "besieged" pawn is removed from play, and the player moves one of his own
    > pawns."""
    state = LONG_TAU.compose({"north": "e12 i11 a4", "east": "d12 l4 l5"}, to=0, players=4)
    board = state.settings.board
    besieged = state.apply("i11-d11")  # d12, a corner, has two neighbours: e12 and d11
    assert besieged.claims == ((board.names["d12"], 0),)
    east = besieged.apply("l5-l9")
    assert east.to == 2 and east.removals() == ()  # south waits: the siege is north's
    assert "d12" in on(east, 1)
    south = east.apply("a4-a9")
    west = south.apply(south.legal_actions()[0])
    assert west.to == 0 and west.removals() == (board.names["d12"],)
    assert LONG_TAU.from_string(besieged.to_string()) == besieged
    assert "claims=d12@1" in besieged.to_string()


# ---- strings, actions and pictures -----------------------------------------------------------
def test_compose_builds_a_position_and_names_what_is_wrong():
    state = LONG_TAU.compose({"east": "k4", "south": "b4"}, to=1, players=4)
    assert state.current_player() == 1 and state.pawns(0) == 1 and state.pawns(1) == 1
    for pawns, field in (({"up": "a4"}, "up"), ({"north": "a4 a4", "south": "d1"}, "a4")):
        with pytest.raises(GameError, match=field):
            LONG_TAU.compose(pawns)
    with pytest.raises(GameError, match="no pawn"):
        LONG_TAU.compose({"north": "a4"})


def test_the_game_is_registered_and_its_actions_read_back():
    assert game("long-tau") is LONG_TAU
    start = LONG_TAU.new()
    assert start.parse_action("f8-f6") in start.legal_actions()
    with pytest.raises(GameError, match="f8-f5"):
        start.apply("f8-f5")  # a stop half way is no move


def test_only_partners_write_their_claims_and_a_string_without_them_reads_with_none():
    assert "claims=" not in LONG_TAU.new().to_string()  # two players: the string as it was
    four = LONG_TAU.new(players=4)
    assert " claims=- " in four.to_string()
    assert LONG_TAU.from_string(four.to_string().replace(" claims=-", "")) == four


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("long-tau", "reads"),
        ("long-tau " * 14, "reads"),
        ("long-tau " + "x=1 " * 12, "field"),
        (LONG_TAU.new().to_string().replace("players=2", "players=3"), "players"),
        (LONG_TAU.new().to_string().replace("chair=through", "chair=over"), "chair"),
        (LONG_TAU.new().to_string().replace("ply=0", "ply=x"), "ply"),
        (LONG_TAU.new().to_string().replace("pending=-", "pending=7"), "pending"),
        (LONG_TAU.new().to_string().replace("to=0", "to=5"), "to: player"),
        (LONG_TAU.new().to_string().replace("pending=-", "pending=- claims=d12@1"), "partners"),
        (LONG_TAU.new(players=4).to_string().replace("claims=-", "claims=d12@9"), "claims"),
        (LONG_TAU.new(players=4).to_string().replace("claims=-", "claims=z9@1"), "claims"),
        (LONG_TAU.new(players=4).to_string().replace("claims=-", "claims=d12@3"), "not an enemy"),
        (LONG_TAU.new(players=4).to_string().replace("claims=-", "claims=k4@1"), "not besieged"),
        (LONG_TAU.new().to_string()[:-3], "board"),
        (LONG_TAU.new().to_string().replace("board=1", "board=3"), "board"),
        (LONG_TAU.new().to_string().replace("board=1111", "board=...."), "none"),
        (re.sub(r"board=\S+", "board=" + "." * 91 + "2", LONG_TAU.new().to_string()), "no pawn"),
        ("x" * 5000, "at most"),
        (LONG_TAU.new(players=4).to_string().replace("sides=open", "sides=closed"), "sides"),
    ],
)
def test_a_bad_position_string_names_its_field(text, field):
    if field == "none":  # four pawns fewer is still a position
        assert LONG_TAU.from_string(text).pawns(0) == 18
        return
    with pytest.raises(TaoLongError, match=field):
        LONG_TAU.from_string(text)


def test_the_pictures_show_the_pawns_the_chair_and_the_removals_due():
    state = position(north="e11 f10 e9", south="e10 d1", to=0)
    text = state.text()
    assert "o X . ." in text.splitlines()[3]  # row 10: e10, removed now, in lower case
    svg = ElementTree.fromstring(state.svg())
    circles = [e for e in svg.iter() if e.tag.endswith("circle")]
    assert len(circles) == 5 and sum(1 for c in circles if "e74c3c" in str(c.attrib)) == 1
    assert sum(1 for e in svg.iter() if e.attrib.get("fill") == "#f2c94c") == 4


# ---- invariants of random play ----------------------------------------------------------------
@settings(max_examples=25, deadline=None, derandomize=True)
@given(
    seed=st.integers(0, 10**6),
    options=st.sampled_from(
        [{}, {"players": 4}, {"players": 4, "four": "each"}, {"chair": "stop"}, {"sides": "closed"}]
    ),
)
def test_random_play_keeps_the_invariants(seed, options):
    rng = random.Random(seed)
    state = LONG_TAU.new(**options)
    board = state.settings.board
    total = sum(1 for held in state.cells if held != EMPTY)
    for _ in range(60):
        if state.is_terminal():
            break
        action = rng.choice(state.legal_actions())
        after = state.apply(action)
        count = sum(1 for held in after.cells if held != EMPTY)
        assert count <= total and count == total - len(state.removals())
        total = count
        if action != PASS:
            moved = state.board_after_removals()[action.origin]
            assert moved == state.colour and after.cells[action.target] == moved
            ray = next(r for r in board.rays[action.origin] if action.target in r)
            beyond = ray[ray.index(action.target) + 1 :]
            free = state.settings.chair == "stop" and action.target in board.chair
            assert free or not beyond or state.board_after_removals()[beyond[0]] != EMPTY
        assert LONG_TAU.from_string(after.to_string()) == after
        assert after.current_player() in (-2, (state.to + 1) % state.players)
        state = after


# ---- endgames ---------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def two_against_one():
    return endgame((2, 1), sides="closed")


def test_the_endgame_table_agrees_with_a_depth_limited_minimax(two_against_one):
    table = two_against_one
    rng = random.Random(7)
    chosen = []
    for value, count in ((WON, 8), (LOST, 4), (DRAWN, 4)):
        found = [
            i
            for i, v in enumerate(table.value)
            if v == value and (value == DRAWN or 1 <= table.distance[i] <= 5)
        ]
        chosen += rng.sample(found, min(count, len(found)))
    checked = {WON: 0, LOST: 0, DRAWN: 0}
    for i in chosen:
        state, value, distance = table.state(i), table.value[i], table.distance[i]
        assert table.lookup(state) == i
        if value == DRAWN:
            assert minimax(state, 4) == DRAWN
        else:
            assert minimax(state, distance) == value  # decided in exactly that many turns
            assert minimax(state, distance - 1) == DRAWN
        checked[value] += 1
    assert all(checked.values()), checked
    assert table.summary((2, 1), 1)["won"] == 0  # a lone pawn besieges nothing
    assert table.summary((1, 1))["drawn"] == table.summary((1, 1))["positions"]


def test_the_endgame_refuses_what_it_cannot_solve():
    with pytest.raises(GameError, match="material"):
        endgame((4, 1))
    with pytest.raises(GameError, match="options"):
        endgame((1, 1), limit=5)
    with pytest.raises(GameError, match="depth"):
        minimax(LONG_TAU.new(), 99)


# ---- the doc ----------------------------------------------------------------------------------
def _rule_rows() -> list[tuple[str, str]]:
    rows = []
    for line in DOC.read_text(encoding="utf-8").splitlines():
        if line.startswith("| \u201c"):
            quote = line.split("\u201c", 1)[1].split("\u201d", 1)[0]
            rows.append((quote, line))
    return rows


def test_the_doc_maps_every_rule_sentence_to_a_test_that_exists():
    rows = _rule_rows()
    assert len(rows) >= 15
    names = set(re.findall(r"^def (test_\w+)", Path(__file__).read_text(), re.MULTILINE))
    for _, line in rows:
        tests = re.findall(r"tests/games/test_long_tau\.py::(\w+)", line)
        assert tests and set(tests) <= names, line


def test_the_doc_quotes_the_rulebook_verbatim():
    if not RULEBOOK.is_file():
        pytest.skip("set TAOLONG_RULEBOOKS to a folder holding the Long Tau rulebook's text")
    book = " ".join(RULEBOOK.read_text(encoding="utf-8").split())
    for quote, _ in _rule_rows():
        for fragment in quote.split("..."):
            assert " ".join(fragment.split()) in book, fragment


def test_the_doc_shows_what_it_says():
    result = doctest.testfile(str(DOC), module_relative=False)
    assert result.attempted > 0 and result.failed == 0
