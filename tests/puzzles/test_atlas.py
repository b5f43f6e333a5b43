"""The solo atlas (taolong_lab.puzzles.atlas, puzzles/atlas/): every shuffled start, its
optimum proved. The stored files are checked whole (ids, starts, lines and certificates, as plain
``taolong verify`` does); ``make test`` re-proves a sample that changes every day, ``make
test-full`` every stored optimum of at most six turns."""

from __future__ import annotations

import datetime
import os
import random
import sys
from pathlib import Path

import pytest

from taolong_lab import load_puzzles, solo_game
from taolong_lab.puzzles.atlas import (
    AtlasError,
    arrangements,
    atlas_id,
    atlas_start,
    challenges,
    cost_table,
    costs,
    main_spaces,
    run,
    table,
)
from taolong_lab.puzzles.verify import verify_puzzle
from taolong_lab.rules import COLOURS, game_data, scenario_names

FOLDER = Path(__file__).resolve().parents[2] / "puzzles" / "atlas"
FILES = sorted(FOLDER.glob("*.jsonl"))
SEED = int(os.environ.get("TAOLONG_ATLAS_SEED", datetime.date.today().toordinal()))


def test_the_arrangements_are_every_shuffle():
    """Stacks of two on the four main spaces, four white and four black stones: C(8, 4)."""
    found = arrangements()
    assert len(found) == len(set(found)) == 70
    for stacks in found:
        assert all(len(stack) == 2 for stack in stacks)
        assert "".join(stacks).count("W") == 4
    data = game_data()
    assert [data.ring[i] for i in main_spaces()] == ["heaven", "fire", "earth", "water"]
    standard = tuple(data.setup_stacks[i] for i in main_spaces())
    assert standard in found


def test_an_atlas_start_is_the_solo_start_with_its_stacks():
    for stacks in (arrangements()[0], arrangements()[-1]):
        start = atlas_start("maze", "black", stacks)
        plain = solo_game("maze", player="black")
        assert start.board == plain.board and start.to_move == "black"
        assert [start.bagua[i] for i in main_spaces()] == list(stacks)
        assert "".join(start.bagua[i] for i in range(8) if i not in main_spaces()) == ""
        start.validate()
    ids = [ident for ident, _ in challenges("field")]
    assert len(ids) == len(set(ids)) == 140
    assert ids[0] == atlas_id("field", "white", arrangements()[0])


def test_an_unknown_scenario_is_refused(tmp_path):
    with pytest.raises(AtlasError, match="unknown scenario 'nowhere'"):
        run(tmp_path, ["nowhere"])


def test_a_run_resumes_and_keeps_what_is_proved(tmp_path, monkeypatch):
    """Two challenges proved, the run cut short; the next run skips them."""
    import taolong_lab.puzzles.atlas as atlas

    few = list(challenges("torus"))[:2]
    monkeypatch.setattr(atlas, "challenges", lambda scenario: iter(few))
    assert run(tmp_path, ["torus"]) == {"torus": {"proved": 2, "pending": 0}}
    first = (tmp_path / "torus.jsonl").read_bytes()
    recorded = costs(tmp_path)
    assert [r.id for r in recorded] == [ident for ident, _ in few]
    assert all(r.cpu_seconds is not None and r.cpu_seconds >= 0 for r in recorded)
    calls = []
    monkeypatch.setattr(atlas, "prove", lambda job: calls.append(job) or {})
    assert run(tmp_path, ["torus"])["torus"]["proved"] == 2
    assert calls == [] and (tmp_path / "torus.jsonl").read_bytes() == first


def test_a_torn_file_is_refused_untouched(tmp_path):
    path = tmp_path / "torus.jsonl"
    path.write_bytes(b'{"format": "taolong-puzzle"')
    with pytest.raises(AtlasError, match="the last line has no end"):
        run(tmp_path, ["torus"])
    assert path.read_bytes() == b'{"format": "taolong-puzzle"'


# ---- the stored atlas ---------------------------------------------------------------------------
@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_a_stored_atlas_file_verifies(path):
    scenario = path.stem
    assert scenario in scenario_names()
    expected = dict(challenges(scenario))
    puzzles = load_puzzles(path)
    assert puzzles, path
    for puzzle in puzzles:
        assert puzzle.id in expected, puzzle.id
        assert puzzle.start == expected[puzzle.id], puzzle.id
        assert puzzle.player in COLOURS and puzzle.rules.mode == "grasshopper"
        assert verify_puzzle(puzzle) == [], puzzle.id


def _sample(seed: int, size: int = 2, max_optimum: int = 6) -> list:
    pool = [p for path in FILES for p in load_puzzles(path) if p.optimum <= max_optimum]
    return random.Random(seed).sample(pool, min(size, len(pool)))


@pytest.mark.parametrize("seed", [SEED], ids=[f"TAOLONG_ATLAS_SEED={SEED}"])
def test_a_sample_of_the_atlas_is_reproved(seed):
    for puzzle in _sample(seed):
        assert verify_puzzle(puzzle, full=True, method="explicit") == [], (seed, puzzle.id)


@pytest.mark.slow
@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_every_short_atlas_optimum_is_reproved(path):
    for puzzle in load_puzzles(path):
        if puzzle.optimum <= 6:
            assert verify_puzzle(puzzle, full=True, method="explicit") == [], puzzle.id


def test_the_readme_table_is_the_stored_atlas():
    """The README's table comes from the stored files (tools/atlas_table.py rewrites it)."""
    sys.path.insert(0, str(FOLDER.parents[1] / "tools"))
    try:
        from atlas_table import readme_table
    finally:
        sys.path.pop(0)
    readme = (FOLDER.parents[1] / "README.md").read_text(encoding="utf-8")
    assert readme_table(readme) == table(FOLDER)


def test_the_table_counts_each_dragon_of_a_file(tmp_path):
    path = FOLDER / "torus.jsonl"
    (tmp_path / "torus.jsonl").write_bytes(path.read_bytes())
    text = table(tmp_path)
    lines = [line for line in text.splitlines() if line.startswith("|")]
    assert [line.split(" | ")[:3] for line in lines[2:]] == [
        ["| torus", "white", "70/70"],
        ["| torus", "black", "70/70"],
    ]
    # the rows left out are named
    assert text.endswith(
        "Not in the atlas yet (no start proved): cave white, cave black, "
        "field white, field black, gorge white, gorge black, maze white, "
        "maze black, mist white, mist black, valley white, valley black, "
        "wall white, wall black.\n"
    )
    mine = [p for p in load_puzzles(path) if p.player == "white"]
    spread = lines[2].split(" | ")[3]
    assert sum(int(part.split(": ")[1]) for part in spread.split(", ")) == len(mine)


def test_the_costs_are_read_from_each_certificate():
    """Positions per challenge: the explicit certificate's count of positions below the
    optimum, the same number ``verify`` checks; the table has a row per scenario and dragon."""
    rows = costs(FOLDER)
    assert len(rows) == sum(len(load_puzzles(path)) for path in FILES)
    by_id = {r.id: r for r in rows}
    for path in FILES:
        puzzle = load_puzzles(path)[0]
        row = by_id[puzzle.id]
        assert row.optimum == puzzle.optimum and row.scenario == path.stem
        if row.solver == "explicit":
            below = puzzle.certificate["no_win_within"]
            assert row.positions == below[-1]["positions"] > 0
    text = cost_table(rows)
    lines = [line for line in text.splitlines() if line.startswith("|")]
    assert "CPU s recorded: only the runs that recorded their CPU time count" in text
    groups = {(r.scenario, r.player) for r in rows}
    assert len(lines) == 2 + len(groups)
    proved = sum(int(line.split(" | ")[2]) for line in lines[2:])
    assert proved == len(rows)


# ---- the command line ---------------------------------------------------------------------------
def test_the_command_proves_resumes_and_prints_the_table(tmp_path, monkeypatch, capsys):
    import taolong_lab.puzzles.atlas as atlas
    from taolong_lab.cli import main

    few = list(challenges("torus"))[:1]
    monkeypatch.setattr(atlas, "challenges", lambda scenario: iter(few))
    argv = ["atlas", str(tmp_path), "--scenario", "torus", "--workers", "1", "--no-progress"]
    assert main(argv) == 0
    assert capsys.readouterr().out == "torus: 1 proved, 0 pending\n"
    assert main([*argv, "--summary"]) == 0
    assert capsys.readouterr().out == table(tmp_path)
    assert main([*argv, "--costs"]) == 0
    assert capsys.readouterr().out == cost_table(costs(tmp_path))


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--scenario", "moon"], "--scenario 'moon': unknown"),
        (["--workers", "0"], "--workers '0': must be from 1"),
        (["--time-limit", "-1"], "--time-limit '-1': must be seconds"),
    ],
)
def test_the_command_refuses_bad_input_in_one_line(tmp_path, capsys, argv, message):
    from taolong_lab.cli import main

    assert main(["atlas", str(tmp_path), *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("taolong: error: ") and message in err and err.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


# ---- a player's question: taolong atlas lookup -------------------------------------------------
@pytest.mark.parametrize(
    "stacks", ["BB.WW.BW.BW", "bb.ww.bw.bw", "BB/-/WW/-/BW/-/BW/-"], ids=["id", "lower", "tln"]
)
def test_lookup_reads_a_start_as_a_player_writes_it(stacks, capsys):
    from taolong_lab.cli import main

    assert main(["atlas", "lookup", "field", "white", stacks, "--folder", str(FOLDER)]) == 0
    out = capsys.readouterr().out.splitlines()
    stored = {p.id: p for p in load_puzzles(FOLDER / "field.jsonl")}["field-white-BB.WW.BW.BW"]
    assert out[0].startswith(f"field-white-BB.WW.BW.BW: win in {stored.optimum} turns, the ")
    assert len(out) == 1 + stored.optimum
    for i, (line, turn) in enumerate(zip(out[1:], stored.solution, strict=True), 1):
        assert line.startswith(f"  {i}. {turn}: sow ")


def test_lookup_ranks_a_start_among_the_proved():
    from taolong_lab.puzzles.atlas import lookup, parse_stacks

    mine = [p for p in load_puzzles(FOLDER / "maze.jsonl") if p.player == "black"]
    for puzzle in mine[:5]:
        found = lookup(FOLDER, "maze", "black", parse_stacks(puzzle.id.split("-", 2)[2]))
        assert found.puzzle.id == puzzle.id and found.proved == len(mine) == 70
        assert found.harder == sum(p.optimum > puzzle.optimum for p in mine)
        assert found.same == sum(p.optimum == puzzle.optimum for p in mine)


@pytest.mark.parametrize(
    ("words", "message"),
    [
        (["field", "white", "BB.WW.BW"], "is not a shuffled start: four stacks of two stones"),
        (["field", "white", "BB.BB.BW.BW"], "four white (W) and four black (B)"),
        (["field", "white", "BB/-/WW/-/BW/-/BW/W"], "on Heaven, Fire, Earth and Water only"),
        (["fjeld", "white", "BB.WW.BW.BW"], "unknown scenario 'fjeld'"),
        (["field", "green", "BB.WW.BW.BW"], "the dragon is white or black"),
        (["field", "white"], "give SCENARIO DRAGON STACKS"),
    ],
)
def test_lookup_refuses_a_bad_start_in_one_line(words, message, capsys):
    from taolong_lab.cli import main

    assert main(["atlas", "lookup", *words, "--folder", str(FOLDER)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("taolong: error: atlas lookup: ") and message in err
    assert err.count("\n") == 1


def test_the_table_names_each_hardest_start():
    for line in table(FOLDER).splitlines()[2:]:
        scenario, player, hardest = (
            line.split(" | ")[0][2:],
            line.split(" | ")[1],
            line.split(" | ")[4],
        )
        top, stacks = hardest.split(" ")[0].rstrip(":"), hardest.split(" ")[1]
        found = {p.id: p.optimum for p in load_puzzles(FOLDER / f"{scenario}.jsonl")}
        assert found[atlas_id(scenario, player, tuple(stacks.split(".")))] == int(top)
        assert int(top) == max(v for k, v in found.items() if f"-{player}-" in k)
