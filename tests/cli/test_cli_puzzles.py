"""One way to name a puzzle (``FILE[:ID]`` for every command, ``--puzzle`` an alias), ``verify``
on many files, the ``puzzles`` listing, ``play --random`` and the one-line summaries (issue 32)."""

from __future__ import annotations

import json

import pytest
from small_wins import WIN_IN_1, WIN_IN_2, WIN_IN_2_LINE

from taolong_lab import State, solo_game
from taolong_lab.cli import main
from taolong_lab.puzzles import Puzzle, load_puzzles, save_puzzles

# each command, with what it needs besides the puzzle
COMMANDS = {
    "show": ["show"],
    "turns": ["turns"],
    "play": ["play", "Ea>Mo ="],
    "graph": ["graph", "--depth", "0", "--out", "{dir}/g.gexf"],
    "solve": ["solve"],
}


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def puzzle_file(tmp_path):
    path = tmp_path / "set.jsonl"
    save_puzzles(
        path,
        [
            Puzzle.from_state("one", "win in 1", State(WIN_IN_1), optimum=1, solution=["Ea>Mo ="]),
            Puzzle.from_state(
                "two", "win in 2", State(WIN_IN_2), optimum=2, solution=WIN_IN_2_LINE
            ),
            Puzzle.from_state("open", "as Dilong", solo_game(player="black")),
        ],
    )
    return path


def command(name: str, tmp_path) -> list[str]:
    return [word.format(dir=tmp_path) for word in COMMANDS[name]]


# ---- FILE[:ID] everywhere -------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(COMMANDS))
@pytest.mark.parametrize("form", ["argument", "--puzzle"])
def test_every_command_takes_the_puzzle_both_ways(capsys, tmp_path, puzzle_file, name, form):
    spec = f"{puzzle_file}:one"
    named = [spec] if form == "argument" else ["--puzzle", spec]
    words = command(name, tmp_path)
    code, out, err = run(capsys, words[0], *named, *words[1:])
    assert (code, err) == (0, "")
    if name == "show":
        assert out.startswith("puzzle one: win in 1\n")
    elif name == "turns":
        assert "Ea>Mo =" in out
    elif name == "play":
        assert out.startswith("1. white Ea>Mo =\n")
        assert "white wins" in out
    elif name == "graph":
        assert out.startswith("one: 1 positions")
    else:
        assert out.startswith("one: optimal: win in 1")


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_an_unknown_id_lists_the_ids_the_same_way_everywhere(capsys, tmp_path, puzzle_file, name):
    words = command(name, tmp_path)
    code, out, err = run(capsys, words[0], f"{puzzle_file}:nope", *words[1:])
    assert (code, out) == (2, "")
    assert err == f"taolong: error: {puzzle_file}: no puzzle 'nope'; its ids: one, two, open\n"


def test_a_long_list_of_ids_is_cut(capsys, tmp_path):
    path = tmp_path / "many.jsonl"
    save_puzzles(path, [Puzzle.from_state(f"p{i}", "t", solo_game()) for i in range(25)])
    code, _, err = run(capsys, "show", f"{path}:nope")
    assert code == 2
    assert err.rstrip().endswith("p18, p19, ... (25 in all)")
    assert "p20" not in err


def test_the_argument_and_the_alias_together_are_refused(capsys, puzzle_file):
    code, out, err = run(capsys, "show", str(puzzle_file), "--puzzle", str(puzzle_file))
    assert (code, out) == (2, "")
    assert err == "taolong: error: FILE[:ID] and --puzzle both name a puzzle; give one\n"


def test_graph_and_solve_need_a_puzzle(capsys, tmp_path):
    for words in (["graph", "--depth", "1", "--out", str(tmp_path / "g.gexf")], ["solve"]):
        code, out, err = run(capsys, *words)
        assert (code, out) == (2, "")
        assert err.startswith("taolong: error: the following arguments are required: FILE[:ID]")


def test_play_reads_a_first_word_that_is_no_file_as_a_turn(capsys):
    code, out, err = run(capsys, "play", "Wa>He a3,a4", "Ea>Wa f8x")
    assert (code, err) == (0, "")
    assert out.startswith("1. white Wa>He a3,a4\n2. black Ea>Wa f8x\n")


# ---- verify on many files -------------------------------------------------------------------
@pytest.fixture
def solved(tmp_path, puzzle_file):
    path = tmp_path / "solved.jsonl"
    save_puzzles(path, load_puzzles(puzzle_file)[:2])
    return path


def test_verify_takes_many_files_and_reports_each(capsys, tmp_path, solved, puzzle_file):
    other = tmp_path / "other.jsonl"
    save_puzzles(other, load_puzzles(puzzle_file)[:1])
    code, out, err = run(capsys, "verify", str(solved), str(other))
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        f"{solved}:",
        "one: ok (win in 1)",
        "two: ok (win in 2)",
        f"{other}:",
        "one: ok (win in 1)",
        "2 files: all ok",
    ]


def test_verify_goes_on_past_a_bad_file_and_exits_with_the_worst(capsys, tmp_path, solved):
    wrong = tmp_path / "wrong.jsonl"
    doc = load_puzzles(solved)[1].to_json()
    doc["optimum"] = 3  # the stored line wins in 2
    wrong.write_text(json.dumps(doc) + "\n", encoding="utf-8")
    absent = tmp_path / "absent.jsonl"
    code, out, err = run(capsys, "verify", str(absent), str(wrong), str(solved))
    assert code == 2
    assert "two: ok (win in 2)" in out.splitlines()[-2:]  # the last file was verified
    lines = err.splitlines()
    assert lines[0] == f"taolong: error: cannot read {absent}: No such file or directory"
    assert lines[-1].startswith(
        f"taolong: error: 2 of 3 files failed; the first: cannot read {absent}"
    )


# ---- the puzzles listing and play --random --------------------------------------------------
def test_puzzles_lists_a_table_and_filters_it(capsys, puzzle_file):
    code, out, err = run(capsys, "puzzles", str(puzzle_file))
    assert (code, err) == (0, "")
    assert [line.split() for line in out.splitlines()] == [
        ["id", "scenario", "mode", "player", "optimum", "tier", "difficulty"],
        ["one", "field", "grasshopper", "white", "1", "novice", "-"],
        ["two", "field", "grasshopper", "white", "2", "novice", "-"],
        ["open", "field", "grasshopper", "black", "-", "-", "-"],
    ]
    code, out, _ = run(capsys, "puzzles", str(puzzle_file), "--tier", "novice", "--json")
    assert [json.loads(line)["id"] for line in out.splitlines()] == ["one", "two"]
    code, out, err = run(capsys, "puzzles", str(puzzle_file), "--scenario", "cave")
    assert (code, out) == (2, "")
    assert err == "taolong: error: no puzzle of the files passes --tier and --scenario\n"


def test_puzzles_of_many_files_names_the_file_and_reads_the_difficulty(capsys, puzzle_file):
    shipped = "puzzles/field-novice.jsonl"
    code, out, _ = run(capsys, "puzzles", str(puzzle_file), shipped, "--scenario", "field")
    rows = [line.split() for line in out.splitlines()]
    assert code == 0 and rows[0][:2] == ["file", "id"]
    first = load_puzzles(shipped)[0]
    shipped_row = next(r for r in rows if r[1] == first.id)
    assert shipped_row[0] == shipped and shipped_row[-1] == str(first.difficulty["score"])
    assert len(rows) == 1 + 3 + len(load_puzzles(shipped))


def test_play_random_picks_by_tier_and_seed(capsys, monkeypatch, tmp_path):
    import io

    path = tmp_path / "mixed.jsonl"
    shipped = load_puzzles("puzzles/field-novice.jsonl") + load_puzzles(
        "puzzles/field-advanced.jsonl"
    )
    save_puzzles(path, shipped)
    picked = set()
    for seed in range(8):
        monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
        code, out, _ = run(
            capsys, "play", str(path), "--random", "--tier", "advanced", "--seed", str(seed)
        )
        ident = out.split(":")[0].removeprefix("puzzle ")
        picked.add(ident)
        assert code == 0 and ident.startswith("field-advanced-")
        monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
        assert (
            run(capsys, "play", str(path), "--random", "--tier", "advanced", "--seed", str(seed))[1]
            == out
        )  # the same seed, the same puzzle
    assert len(picked) > 1


@pytest.mark.parametrize(
    ("words", "message"),
    [
        (["--tier", "novice"], "--tier and --seed pick a puzzle with --random: add it"),
        (["--random", ":one"], "--random picks a puzzle of a FILE: give the file without an :ID"),
        (["--random", "--tier", "expert"], "--tier expert: no puzzle of that tier in the file"),
    ],
)
def test_play_random_bad_input(capsys, puzzle_file, words, message):
    spec = str(puzzle_file) + ("".join(w for w in words if w.startswith(":")))
    flags = [w for w in words if not w.startswith(":")]
    code, out, err = run(capsys, "play", spec, *flags)
    assert (code, out) == (2, "")
    assert err.startswith(f"taolong: error: {message}")


# ---- one-line summaries ---------------------------------------------------------------------
def test_a_puzzle_and_a_solution_print_one_short_line(puzzle_file):
    from taolong_lab import solve

    puzzle = load_puzzles("puzzles/rulebook-solo.jsonl")[0]
    assert len(repr(puzzle)) > 1000  # the repr stays complete
    text = str(puzzle)
    assert "\n" not in text and len(text) < 200
    assert text.startswith(f"puzzle {puzzle.id} ") and f"optimum {puzzle.optimum}" in text
    solution = solve(load_puzzles(puzzle_file)[1])
    assert str(solution) == (
        f"optimal: a win in 2 turns, {solution.optimal_first_turns} optimal first turn"
        f"{'s' * (solution.optimal_first_turns != 1)} (taolong_lab.solvers.explicit)"
    )
