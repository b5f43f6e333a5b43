"""``taolong show/turns/play --puzzle FILE[:ID]`` and the interactive session of ``play``."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taolong_lab import State, solo_game
from taolong_lab.cli import main
from taolong_lab.cli.session import Session
from taolong_lab.puzzles import Puzzle, load_puzzles, save_puzzles

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "puzzles" / "rulebook-solo.jsonl"
# White wins in two turns: He>Fi d3+, then La>Fi d4x.
TWO_TURNS_TLN = (
    "field/grasshopper/current/solo 8/8/8/8/8/8/8/8 c3-c2-c1-b1:4:0 d6-d7:2:0 "
    "WW/-/BW/-/BB/-/WB/- 2:8 w 1"
)
# White can lose at once: Wa>He (the black Heaven bites white's last water stone).
LOSING_TLN = (
    "field/grasshopper/current/solo 8/8/8/8/8/8/8/8 c3-c2:1:0 c5-c6-c7:4:2 "
    "WW/-/BW/-/BB/-/WB/- 3:6 w 1"
)


def run(capsys, *argv: str, stdin: str | None = None, monkeypatch=None) -> tuple[int, str, str]:
    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def puzzle_file(tmp_path) -> Path:
    path = tmp_path / "set.jsonl"
    save_puzzles(
        path,
        [
            Puzzle.from_state("win", "Two turns to win", State(TWO_TURNS_TLN), optimum=2),
            Puzzle.from_state("lose", "Careful", State(LOSING_TLN)),
            Puzzle.from_state("black", "As Dilong", solo_game(player="black")),
        ],
    )
    return path


def board_of(tln: str) -> str:
    return str(State(tln))


# ---- show and turns ---------------------------------------------------------------------------
def test_show_puzzle_draws_the_first_puzzle_by_default(capsys):
    code, out, err = run(capsys, "show", "--puzzle", str(SHIPPED))
    first = load_puzzles(SHIPPED)[0]
    assert (code, err) == (0, "")
    assert out == (
        f"puzzle {first.id}: {first.title}\n"
        f"You play white; win by taking the black dragon's last segment"
        f" (best known: {first.optimum} turns).\n\n{first.start}\n"
    )


def test_show_puzzle_with_an_id(capsys):
    code, out, _ = run(capsys, "show", "--puzzle", f"{SHIPPED}:field-black", "--tln")
    assert code == 0
    lines = out.splitlines()
    assert (
        lines[0]
        == "puzzle field-black: The Field, playing Dilong (black): the rulebook's solo challenge"
    )
    assert lines[1] == (
        "You play black; win by taking the white dragon's last segment (best known: 7 turns)."
    )
    assert lines[-1] == solo_game(player="black").to_tln()
    assert "turn 1: black to move" in lines


def test_show_puzzle_json_is_the_start_position_only(capsys, puzzle_file):
    code, out, _ = run(capsys, "show", "--puzzle", f"{puzzle_file}:win", "--json")
    assert code == 0
    assert json.loads(out) == State(TWO_TURNS_TLN).to_json()


def test_show_puzzle_mentions_the_optimum(capsys, puzzle_file):
    code, out, _ = run(capsys, "show", "--puzzle", str(puzzle_file))
    assert code == 0
    assert out.splitlines()[1] == (
        "You play white; win by taking the black dragon's last segment (best known: 2 turns)."
    )


def test_turns_and_play_with_turns_take_the_puzzle_start(capsys, puzzle_file):
    code, out, _ = run(capsys, "turns", "--puzzle", f"{puzzle_file}:win")
    assert code == 0
    turns = [str(t) for t in State(TWO_TURNS_TLN).legal_turns()]
    assert [line.split()[1] for line in out.splitlines()] == [t.split()[0] for t in turns]
    assert out.splitlines()[0].lstrip().startswith(f"1. {turns[0]}")
    code, out, _ = run(
        capsys, "play", "--puzzle", f"{puzzle_file}:win", "--tln", "He>Fi d3+", "La>Fi d4x"
    )
    assert code == 0
    lines = out.splitlines()
    assert lines[:2] == ["1. white He>Fi d3+", "2. white La>Fi d4x"]
    assert "white wins: black lost its last segment" in lines
    assert lines[-1] == State(TWO_TURNS_TLN).play("He>Fi d3+").play("La>Fi d4x").to_tln()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["show", "--puzzle", "{file}:nope"],
            "taolong: error: {file}: no puzzle 'nope'; its ids: win, lose, black\n",
        ),
        (
            ["show", "--puzzle", "{dir}/absent.jsonl"],
            "taolong: error: cannot read {dir}/absent.jsonl: No such file or directory\n",
        ),
        (
            ["show", "--puzzle", "{dir}/absent.jsonl:win"],
            "taolong: error: cannot read {dir}/absent.jsonl: No such file or directory\n",
        ),
        (
            ["show", "--puzzle", "{file}", "--position", TWO_TURNS_TLN],
            "taolong: error: --position and the puzzle FILE[:ID] both name a position; give one\n",
        ),
        (
            ["play", "--puzzle", "{file}", "--scenario", "gorge"],
            "taolong: error: a puzzle already names its rules; drop --scenario\n",
        ),
        (
            ["play", "--puzzle", "{file}:win", "He>Fi d4x"],
            "taolong: error: turn 1 ('He>Fi d4x'): illegal turn 'He>Fi d4x': the turn: "
            "Fire allows only d3+, d3x, c4+, c4x, b3+, b3x\n",
        ),
        (
            ["play"],
            "taolong: error: the following arguments are required: TURN (or a puzzle FILE[:ID] "
            "to play a solo challenge turn by turn) (see 'taolong play --help')\n",
        ),
    ],
)
def test_bad_puzzle_arguments(capsys, puzzle_file, argv, message):
    fill = {"file": str(puzzle_file), "dir": str(puzzle_file.parent)}
    code, out, err = run(capsys, *[a.format(**fill) for a in argv])
    assert (code, out) == (2, "")
    assert err == message.format(**fill)


def test_other_lines_problems_are_warnings(capsys, tmp_path, puzzle_file):
    path = tmp_path / "mixed.jsonl"
    lines = puzzle_file.read_text("utf-8").splitlines()
    path.write_text("\n".join([lines[0], "{oops", lines[2]]) + "\n", encoding="utf-8")
    code, out, err = run(capsys, "show", "--puzzle", f"{path}:black")
    assert code == 0
    assert out.startswith("puzzle black: As Dilong\n")
    assert err == (
        f"taolong: warning: {path}:2: json: not valid JSON: Expecting property name enclosed "
        "in double quotes at column 2\n"
    )
    code, out, err = run(capsys, "show", "--puzzle", f"{path}:lose")
    assert (code, out) == (2, "")
    assert err.splitlines()[-1] == (
        f"taolong: error: {path}: no puzzle 'lose' (1 problem above); its ids: win, black"
    )
    path.write_text("{oops\n", encoding="utf-8")
    code, out, err = run(capsys, "show", "--puzzle", str(path))
    assert code == 2
    assert (
        err.splitlines()[-1] == f"taolong: error: {path}: no puzzles in the file (1 problem above)"
    )


# ---- the interactive session ------------------------------------------------------------------
def session(capsys, monkeypatch, spec: str, entries: list[str]) -> tuple[int, str, str]:
    return run(
        capsys,
        "play",
        "--puzzle",
        spec,
        stdin="".join(e + "\n" for e in entries),
        monkeypatch=monkeypatch,
    )


def turn_lines(state: State) -> list[str]:
    """The numbered list of legal turns as the session prints it."""
    turns = state.legal_turns()
    width, texts = len(str(len(turns))), [str(t) for t in turns]
    tw = max(map(len, texts))
    return [
        f"{n:>{width}}. {text:<{tw}}  {state.describe_turn(turn)}".rstrip()
        for n, (turn, text) in enumerate(zip(turns, texts, strict=True), start=1)
    ]


def test_a_session_to_a_win(capsys, monkeypatch, puzzle_file):
    start = State(TWO_TURNS_TLN)
    middle = start.play("He>Fi d3+")
    end = middle.play("La>Fi d4x")
    code, out, err = session(capsys, monkeypatch, f"{puzzle_file}:win", ["1", "La>Fi d4x"])
    assert (code, err) == (0, "")
    first = start.legal_turns()[0]
    assert str(first) == "He>Fi d3+"
    expected = [
        "puzzle win: Two turns to win",
        "You play white; win by taking the black dragon's last segment (best known: 2 turns).",
        "Enter 'help' for the commands.",
        "",
        *str(start).splitlines(),
        "",
        *turn_lines(start),
        "turn 1 white> 1",
        "1. He>Fi d3+",
        f"   {start.describe_turn(first)}",
        "",
        *str(middle).splitlines(),
        "",
        *turn_lines(middle),
        "turn 2 white> La>Fi d4x",
        f"2. {middle.parse_turn('La>Fi d4x')}",
        f"   {middle.describe_turn(middle.parse_turn('La>Fi d4x'))}",
        "",
        *str(end).splitlines(),
        "",
        "You win in 2 turns.",
    ]
    assert out.splitlines() == expected


def test_a_session_to_a_loss_shows_what_the_opponent_did(capsys, monkeypatch, puzzle_file):
    start = State(LOSING_TLN)
    turn = start.parse_turn("Wa>He (He:c4) #")
    code, out, _ = session(capsys, monkeypatch, f"{puzzle_file}:lose", ["wa>he (he:c4) #"])
    assert code == 0
    lines = out.splitlines()
    assert "1. Wa>He (He:c4) #" in lines
    description = start.describe_turn(turn)
    assert "the black dragon acts: Heaven step c4" in description
    assert f"   {description}" in lines
    assert lines[-1] == "You lose after 1 turn: white lost its last segment."


def test_undo_and_every_kind_of_bad_entry(capsys, monkeypatch, puzzle_file):
    start = State(TWO_TURNS_TLN)
    n = len(start.legal_turns())
    entries = [
        "undo",  # nothing to undo yet
        "",  # ignored
        "0",
        str(n + 1),
        "frobnicate",
        "He>Fi d4x",  # not legal
        "He>Fi d3+",
        "undo",
        "board",
        "list",
        "help",
        "quit",
    ]
    code, out, err = session(capsys, monkeypatch, f"{puzzle_file}:win", entries)
    assert (code, err) == (0, "")
    assert "Traceback" not in out
    transcript = out.split("turn 1 white> ")
    # each entry is echoed after its prompt, then answered
    replies = [part.split("\n", 1) for part in transcript[1:]]
    # the turn played moves the prompt to "turn 2 white> ", so split that part again
    assert replies[0] == ["undo", "Nothing to undo.\n"]
    assert replies[1] == ["", ""]
    assert replies[2] == ["0", f"There is no turn 0: enter 1 to {n}, or 'list'.\n"]
    assert replies[3] == [str(n + 1), f"There is no turn {n + 1}: enter 1 to {n}, or 'list'.\n"]
    assert replies[4][0] == "frobnicate"
    assert replies[4][1].startswith("'frobnicate' is not a command: list, board, undo")
    assert replies[4][1].endswith("\nEnter a number from the list, a turn, or 'help'.\n")
    assert replies[5] == [
        "He>Fi d4x",
        "illegal turn 'He>Fi d4x': the turn: Fire allows only d3+, d3x, c4+, c4x, b3+, b3x\n"
        "Enter a number from the list, a turn, or 'help'.\n",
    ]
    played, undo = replies[6][1].split("turn 2 white> ")
    assert played.startswith("1. He>Fi d3+\n")
    assert undo.startswith(
        "undo\nTook back turn 1.\n\n" + str(start) + "\n\n" + turn_lines(start)[0]
    )
    board, listing, help_text, leave = replies[7:]
    assert board == ["board", str(start) + "\n"]
    assert listing == ["list", "\n".join(turn_lines(start)) + "\n"]
    assert help_text[0] == "help" and "undo   take back your last turn" in help_text[1]
    assert leave == ["quit", "You left after 0 turns.\n"]


def test_the_end_of_the_input_leaves_the_session(capsys, monkeypatch, puzzle_file):
    code, out, _ = session(capsys, monkeypatch, f"{puzzle_file}:black", ["1"])
    assert code == 0
    assert out.endswith("turn 2 black> \nYou left after 1 turn.\n")


def test_ctrl_c_leaves_the_session(capsys, puzzle_file):
    class Interrupted(io.StringIO):
        def readline(self, *args):
            raise KeyboardInterrupt

    puzzle = load_puzzles(puzzle_file)[0]
    out = io.StringIO()
    assert Session(puzzle, Interrupted(), out).run() == 0
    assert out.getvalue().endswith("turn 1 white> \nYou left after 0 turns.\n")


def test_an_internal_error_is_a_message_not_a_crash(capsys, monkeypatch, puzzle_file):
    calls = []

    def broken(self, turn):
        calls.append(turn)
        raise RuntimeError("boom")

    monkeypatch.setattr(Session, "play", broken)
    code, out, err = session(capsys, monkeypatch, f"{puzzle_file}:win", ["1", "quit"])
    assert (code, err) == (0, "")
    assert "internal error, please report it: RuntimeError: boom\nturn 1 white> quit\n" in out
    assert len(calls) == 1


def test_a_terminal_gets_no_echo(puzzle_file):
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    puzzle = load_puzzles(puzzle_file)[0]
    out = io.StringIO()
    Session(puzzle, Terminal("help\nquit\n"), out).run()
    assert "turn 1 white> Enter the number of a turn" in out.getvalue()
    assert "turn 1 white> help" not in out.getvalue()


ENTRY = st.one_of(
    st.text(max_size=30),
    st.text(
        alphabet="0123456789\u00b2\u0663\u2167", min_size=1, max_size=12
    ),  # str.isdigit, not int()
    st.text(alphabet="HeLaFiThWiWaMoEa>()+x=#~,;: abcdefgh12345678", max_size=40),
)


@settings(max_examples=100, deadline=None, derandomize=True)
@given(st.lists(ENTRY.filter(lambda e: "\n" not in e and "\r" not in e), max_size=6))
def test_no_entry_reaches_the_internal_error_message(entries):
    puzzle = Puzzle.from_state("p", "p", State(TWO_TURNS_TLN), optimum=2)
    out = io.StringIO()
    assert Session(puzzle, io.StringIO("".join(e + "\n" for e in entries)), out).run() == 0
    assert "internal error" not in out.getvalue()
