"""The Explorer with no view: the turn builder (taolong_lab.explorer.builder) and the session
(taolong_lab.explorer.session), tested without ipywidgets. The widget over them:
tests/explorer/test_widgets.py."""

from __future__ import annotations

import itertools
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from taolong_lab import Line, State, new_game, solo_game
from taolong_lab.engine import cell_name
from taolong_lab.explorer import ExplorerError, ExplorerSession, TurnBuilder, bundled_puzzles
from taolong_lab.explorer.builder import choices_of, sowing_words, stacks_after
from taolong_lab.explorer.session import MESSAGES_KEPT
from taolong_lab.limits import MAX_PUZZLE_TURNS
from taolong_lab.pictures import svg
from taolong_lab.rules import scenario_names

ROOT = Path(__file__).resolve().parents[2]
# A solo challenge won in one turn (the explicit solver's doctest).
ONE_TURN = (
    "field/grasshopper/current/solo 8/8/8/8/8/8/8/8 d3-d2-d1-e1:4:0 d4-d5:1:0 "
    "-/-/BB/-/W/-/BWW/WB 3:8 w 1"
)
MODES = ("grasshopper", "monk", "master", "chosen-one")


def test_the_headless_modules_run_without_ipywidgets():
    """In a process where ipywidgets cannot be imported, a session builds and plays a turn
    and gives a hint: only the widget needs ipywidgets."""
    code = "\n".join(
        [
            "import sys",
            "sys.modules['ipywidgets'] = None  # any import of it fails",
            "from taolong_lab import State",
            "from taolong_lab.explorer import ExplorerSession",
            f"session = ExplorerSession(State({ONE_TURN!r}))",
            "assert session.hint() == 'Ea>Mo ='",
            "session.choose_space('Ea')  # stay, the only destination: played at once",
            "print(session.line.notation(), session.position.outcome().winner)",
        ]
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=120,  # a guard against a hang, not a measure of speed
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "['Ea>Mo ='] white"


# ---- the turn builder -------------------------------------------------------------------------
def test_a_turn_is_built_choice_by_choice_and_is_a_legal_turn():
    start = new_game()
    builder = TurnBuilder(start)
    assert builder.next_kind() == "space" and builder.prompt() == ""
    assert builder.choose_space("Wa") is None
    assert [c.label for c in builder.options()] == ["a3", "a3,a4"]
    assert "the last stone names Heaven" in builder.prompt()
    turn = builder.choose("a3,a4")
    assert turn == start.parse_turn("Wa>He a3,a4") and turn in start.legal_turns()


def test_a_choice_not_offered_says_why_and_changes_nothing():
    builder = TurnBuilder(new_game())
    builder.choose_space("He")
    picked = list(builder.picked)
    with pytest.raises(ExplorerError, match="cannot sow La: the Lake space is empty"):
        builder.choose_space("La")
    with pytest.raises(ExplorerError, match=r"'b2' is not a legal choice now .*: absorb, expel"):
        builder.choose("b2")
    with pytest.raises(ExplorerError, match="no Ba Gua space 9"):
        builder.choose_space(9)
    assert builder.picked == picked


def test_the_opponents_only_response_is_chosen_for_the_player():
    builder = TurnBuilder(solo_game())
    builder.choose_space("Wa")
    assert [c.kind for c in builder.picked] == ["space", "group"]
    assert builder.last_choice.kind == "space"


def test_every_button_not_offered_has_its_reason():
    builder = TurnBuilder(new_game())
    spaces = {offer.label.split()[0]: offer for offer in builder.space_offers()}
    assert {k for k, o in spaces.items() if o.choice is not None} == {"He", "Ea", "Wa"}
    assert spaces["La"].tooltip == "Lake (empty). The Lake space is empty."
    assert "lands on Heaven" in spaces["Wa"].tooltip
    effects = builder.effect_offers()
    assert all(o.choice is None for o in effects.values())
    assert "follows the step of a Fire or Water action" in effects["absorb"].tooltip
    builder.choose_space("Wa")
    blocked = {o.label: o.tooltip for o in builder.choice_offers() if o.choice is None}
    assert set(blocked) == {"a1", "b2"}  # the head is on a2, facing south
    assert "the white dragon's body is there" in blocked["a1"]
    assert "choose a destination first" in builder.effect_offers()["expel"].tooltip


def test_the_choices_are_worded_by_the_engine():
    state = solo_game()
    builder = TurnBuilder(state)
    builder.choose_space("Ea")
    ties = builder.options()
    assert [c.kind for c in ties] == ["group", "group"]
    assert [c.tooltip for c in ties] == [state.describe_group(c.value) for c in ties]
    assert ties[1].tooltip == "the black dragon acts: Mountain step f8, Water step e8, absorb"
    builder.choose(ties[1])  # then a3, the only destination, is taken
    assert builder.lone[0].tooltip == "sow Earth -> Water, step a3"


def _positions(seed: int, plies: int):
    """A few positions along random games of every scenario and mode, solo and not."""
    rng = random.Random(seed)
    for number, scenario in enumerate(scenario_names()):
        mode = MODES[number % len(MODES)]
        for state in (new_game(scenario, mode), solo_game(scenario, mode)):
            for _ in range(plies):
                if state.is_over():
                    break
                yield state
                state = state.play(rng.choice(state.legal_turns()))


def test_the_stacks_followed_are_the_engines():
    """After every phase of every legal turn, the stacks the Explorer shows are the ones the
    engine leaves (Monk's and the solo variant's drop orders and Master's flux included)."""
    checked = 0
    for state in _positions(seed=3, plies=4):
        for turn in state.legal_turns():
            assert stacks_after(state, turn.phases) == state.play(turn).bagua, (state, turn)
            assert all(sowing_words(state, turn, n) for n in range(len(turn.phases)))
            checked += 1
    assert checked > 100


def test_a_second_sowing_follows_the_flux_coin_the_first_left():
    """Master: the first phase sows a black majority counterclockwise, turning the coin from
    cw; the second phase's tied stack then flows counterclockwise too."""
    state = State(
        "cave/master/current 3o4/2o5/8/8/7o/6o1/5o2/4o3 b3-a3-a2-a1:3:0 f8-g8-h8-h7:4:0 "
        "-/-/BW/-/-/-/WBBBW/W@cw 1:8 b 4"
    )
    turn = state.parse_turn("Wa/BBBWW>Th f7 ; Wi/BW>La f6")
    assert state.flux == "cw" and state.play(turn).flux == "ccw"
    assert stacks_after(state, turn.phases) == state.play(turn).bagua
    assert sowing_words(state, turn, 1).endswith("the last stone names Lake")


def test_the_sowing_words_follow_the_solo_drop_order():
    """Monk solo: the Water stack WB drops black first (A28), so white lands on Heaven."""
    state = solo_game("field", "monk")
    turn = state.parse_turn("Wa>He (Wi:~) a3")
    assert state.bagua[6] == "WB" and state.play(turn).bagua[0] == "WWW"
    assert sowing_words(state, turn, 0) == (
        "sowing Water: black on Wind, white on Heaven; the last stone names Heaven"
    )


# ---- the session ------------------------------------------------------------------------------
def test_the_session_holds_a_line_and_moves_along_it():
    session = ExplorerSession(new_game())
    for turn in ["Wa>He a3,a4", "Ea>Wa f8x", "Wi>He a5"]:
        session.play(turn)
    line = session.line
    assert isinstance(line, Line) and line == Line(new_game(), line.notation())
    session.undo()
    session.undo()
    assert session.index == 1 and session.position == line.states()[1] and session.line == line
    session.redo()
    assert session.position == line.states()[2]
    session.goto(0)
    session.play("Wa>He a3,a4")  # the line's next turn: the line is kept
    assert session.line == line and session.index == 1
    session.play("Ea>Wa f8+")  # another turn: the rest of the line goes
    assert session.line.notation() == ["Wa>He a3,a4", "Ea>Wa f8+"] and session.index == 2
    with pytest.raises(ExplorerError, match="nothing to redo"):
        session.redo()
    assert session.messages[-1] == ("error", "nothing to redo: this is the end of the line")


def test_a_bad_line_changes_nothing_and_a_line_is_read_only_to_its_bound():
    session = ExplorerSession(new_game(), line=["Wa>He a3,a4"])
    with pytest.raises(ExplorerError, match="turn 2"):
        session.load(new_game("valley"), line=["Wa>He a3,a4", "He>Fi a3x"])
    assert session.line == Line(new_game(), ["Wa>He a3,a4"])

    def endless():
        for number in itertools.count():
            assert number <= MAX_PUZZLE_TURNS, "read past the bound"
            yield "Wa>He a3,a4"

    with pytest.raises(ExplorerError, match=f"more than {MAX_PUZZLE_TURNS} turns"):
        session.load(new_game(), line=endless())
    with pytest.raises(ExplorerError, match="a State, a Puzzle or a TLN string"):
        session.load(42)


@pytest.mark.parametrize(
    ("options", "field"),
    [({"hint_time": 0}, "hint_time"), ({"solve_time": float("nan")}, "solve_time"),
     ({"method": "magic"}, "method")],
)  # fmt: skip
def test_bad_settings_are_refused_by_name(options, field):
    with pytest.raises(ExplorerError, match=f"^{field}: "):
        ExplorerSession(**options)


def test_a_hint_and_a_solve_say_what_the_solver_proved():
    session = ExplorerSession(State(ONE_TURN))
    assert session.hint() == "Ea>Mo ="
    first, _, details = session.message.partition("\n")
    assert first == "Sow Earth, then stay: wins in 1 turn, proved"
    assert "hint: Ea>Mo =" in details and "certificate" in details
    assert session.index == 0 and len(session.line) == 0
    solution = session.solve()
    assert solution.optimum == 1 and session.line.notation() == ["Ea>Mo ="]
    two_player = ExplorerSession(new_game())
    assert two_player.solver_reason() == "the solvers work on solo challenges"
    with pytest.raises(ExplorerError, match="two-player position"):
        two_player.hint()


def test_the_picture_draws_the_turn_being_built_then_the_last_turn():
    session = ExplorerSession(new_game(), size=300)
    plain = session.picture()
    assert plain == svg(new_game(), size=300, reveal=False)
    session.choose_space("Wa")
    assert session.picture() != plain
    session.choose("a3")
    assert session.picture() == svg(session.line[:1], size=300, reveal=False)


def test_the_messages_are_bounded():
    session = ExplorerSession(new_game())
    for number in range(MESSAGES_KEPT + 5):
        session.say(f"message {number}")
    assert len(session.messages) == MESSAGES_KEPT
    assert session.message == f"message {MESSAGES_KEPT + 4}"


def test_the_catalogue_lists_the_readable_puzzle_files(tmp_path):
    good = json.loads((ROOT / "puzzles" / "rulebook-solo.jsonl").read_text().splitlines()[0])
    (tmp_path / "good.jsonl").write_text(json.dumps(good) + "\n")
    (tmp_path / "broken.jsonl").write_text('{"id": "x", \n')
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    assert list(bundled_puzzles(tmp_path)) == [f"good.jsonl:{good['id']}"]
    session = ExplorerSession(puzzles=tmp_path)
    session.load_puzzle(good["id"])
    assert session.puzzle.id == good["id"] and session.catalogue_key() == f"good.jsonl:{good['id']}"
    with pytest.raises(ExplorerError, match="no bundled puzzle"):
        session.load_puzzle("nope")


# ---- clicks on the picture, the log, the lone destination, the hint ---------------------------
def test_a_click_on_a_space_sows_it_and_a_click_on_a_cell_steps_there():
    session = ExplorerSession(new_game())
    with pytest.raises(ExplorerError, match="c3: sow a Ba Gua space first"):
        session.click("cell-c3")
    session.click("space-Wa")
    with pytest.raises(ExplorerError, match="b2 is not a legal destination"):
        session.click("cell-b2")
    with pytest.raises(ExplorerError, match="no space or cell"):
        session.click("rock-c3")
    session.click("cell-a4")
    assert session.line.notation() == ["Wa>He a3,a4"]


def test_a_click_on_a_cell_matches_the_destination_ending_there():
    """For every step of random positions, a click on its last cell takes it, or names the
    paths that end there (a stay is always the lone destination: taken at once)."""
    tried = 0
    for state in itertools.islice(_positions(seed=5, plies=6), 40):
        for space in {c.value for c in TurnBuilder(state).options()}:
            session = ExplorerSession(state)
            session.choose_space(space)
            if session.index or session.builder.next_kind() != "move":
                continue
            for move in [c for c in session.options() if c.value[0]]:
                trial = ExplorerSession(state)
                trial.choose_space(space)
                path = move.value[0]
                try:
                    trial.click(f"cell-{cell_name(path[-1])}")
                except ExplorerError as exc:
                    assert "several paths end on" in str(exc) and move.label in str(exc)
                    continue
                taken = choices_of(state, trial.line.turns[0]) if trial.index else trial.picked
                assert move in taken, (state.to_tln(), move.label)
                tried += 1
    assert tried > 20


def test_the_log_has_one_line_a_step_and_says_each_sowing_once():
    session = ExplorerSession(new_game())
    session.choose_space("Wa")
    session.choose("a3,a4")
    session.play("Ea>Wa f8x")
    first_lines = [text.split("\n")[0] for _level, text in session.messages]
    assert first_lines[0].startswith("white played Wa>He a3,a4: ")  # the prompt is gone
    assert first_lines[1].startswith("black played Ea>Wa f8x: ")
    said = "\n".join(text for _level, text in session.messages)
    assert said.count("sowing Water") == 1 and said.count("sowing Earth") == 1


def test_a_prompt_lasts_only_until_the_next_message():
    """A stale "now choose the destination" never stays once the turn is played."""
    session = ExplorerSession(new_game())
    session.choose_space("Wa")
    assert session.messages[-1] == ("prompt", session.builder.prompt())
    assert "now choose the destination: a3, a3,a4" in session.message
    session.choose("a3,a4")
    assert all(level != "prompt" for level, _ in session.messages)
    assert "now choose" not in "\n".join(text for _, text in session.messages)


def test_a_lone_destination_is_taken_and_said():
    builder = TurnBuilder(new_game())
    builder.choose_space("He")  # Fire: the head's one step is a3, then absorb or expel
    assert [c.label for c in builder.lone] == ["a3"] and builder.next_kind() == "effect"
    session = ExplorerSession(new_game())
    session.choose_space("He")
    assert session.message.endswith(
        "a3: the only destination, taken; now absorb or expel: absorb, expel"
    )
    session.choose_space("Wa")  # two destinations: it waits, saying what for
    assert session.builder.lone == [] and "now choose the destination: a3, a3,a4" in (
        session.message
    )


def _stored_puzzle():
    path = next(p for p in sorted((ROOT / "puzzles").glob("*-advanced.jsonl")))
    from taolong_lab import load_puzzles

    return next(p for p in load_puzzles(path) if p.solution and p.optimum == len(p.solution))


def test_a_hint_on_a_puzzles_line_uses_its_stored_line_before_any_search(monkeypatch):
    puzzle = _stored_puzzle()
    session = ExplorerSession(puzzle)

    def no_search(*args, **kwargs):
        raise AssertionError("searched")

    monkeypatch.setattr("taolong_lab.explorer.session.solve", no_search)
    assert session.known_line() == (list(puzzle.solution), True)
    assert session.hint() == puzzle.solution[0]
    first = session.message.split("\n")[0]
    assert first.endswith(f": wins in {puzzle.optimum} turns, proved")
    assert "stored line" in session.message
    session.play(puzzle.solution[0])
    assert session.hint() == puzzle.solution[1]
    assert f"wins in {puzzle.optimum - 1} turns" in session.message


def test_a_hint_off_the_stored_line_searches():
    puzzle = _stored_puzzle()
    session = ExplorerSession(puzzle, hint_time=30)
    other = next(t for t in puzzle.start.legal_turns() if str(t) != puzzle.solution[0])
    session.play(other)
    if session.position in Line(puzzle.start, puzzle.solution).states():
        pytest.skip("the other turn leads back onto the line")
    assert session.known_line() is None
    session.hint()
    assert "solver" in session.message  # the solver's details, after the first line


def test_a_stored_line_not_proved_is_the_fallback_of_a_search_that_finds_nothing(monkeypatch):
    import dataclasses

    from taolong_lab.explorer import session as session_module

    puzzle = dataclasses.replace(_stored_puzzle(), certificate=None)  # nothing proves it
    real = session_module.solve
    monkeypatch.setattr(  # a search that stops at once
        session_module, "solve", lambda *args, **kwargs: real(*args, **kwargs, max_states=1)
    )
    session = ExplorerSession(puzzle)
    assert session.known_line() == (list(puzzle.solution), False)
    assert session.hint() == puzzle.solution[0]
    first = session.message.split("\n")[0]
    assert first.endswith(f": wins in {len(puzzle.solution)} turns, not proved the fewest")
