"""Replay the golden transcripts in tests/golden (see tests/golden/README.md).

Regenerate after an intended change with ``.venv/bin/python tools/golden.py``.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from tool_scripts import load

from taolong_lab import State, new_game, solo_game
from taolong_lab.pictures.text import board_text
from taolong_lab.rules import Rules

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
golden = load("golden")
TURN_RE = re.compile(r"(\d+) (white|black) (\S.*)\Z")


@dataclass
class Entry:
    number: int
    side: str
    notation: str
    tln: str = ""
    board: list[str] = field(default_factory=list)
    line: int = 0


@dataclass
class Transcript:
    header: dict[str, str]
    turns: list[Entry]
    footer: dict[str, str]


def parse(text: str) -> Transcript:
    """Read a golden file independently of the tool that writes it."""
    header: dict[str, str] = {}
    footer: dict[str, str] = {}
    turns: list[Entry] = []
    lines = text.split("\n")
    assert lines[-1] == "", "a golden file ends with a newline"
    body = False
    for number, line in enumerate(lines[:-1], start=1):
        where = f"line {number}: {line!r}"
        if line.startswith("#"):
            assert not body, where
            continue
        if not body:
            if line == "":
                body = True
                continue
            key, sep, value = line.partition(": ")
            assert sep, where
            header[key] = value
            continue
        if line.startswith("  | ") or line == "  |":
            assert turns and turns[-1].tln, where
            turns[-1].board.append(line[4:])
        elif line.startswith("  "):
            assert turns and not turns[-1].tln, where
            turns[-1].tln = line[2:]
        elif match := TURN_RE.match(line):
            assert not footer, where
            turns.append(Entry(int(match[1]), match[2], match[3], line=number))
        else:
            key, sep, value = line.partition(": ")
            assert sep and key in ("result", "turns"), where
            footer[key] = value
    return Transcript(header, turns, footer)


def golden_files() -> list[Path]:
    return sorted(GOLDEN.glob("*.txt"))


def test_every_game_has_a_file_and_every_file_a_game():
    assert {p.name for p in golden_files()} == {g.filename() for g in golden.GAMES}
    editions = {g.edition for g in golden.GAMES}
    assert editions == {"current", "earlier"}
    assert 8 <= len(golden.GAMES) <= 14
    # solo: both colours, both lookaheads, a game the player wins and one it loses
    solo = [g for g in golden.GAMES if g.player]
    assert {g.player for g in solo} == {"white", "black"}
    assert {dict(g.options).get("solo_lookahead", "matter") for g in solo} == {
        "matter",
        "next-turn",
    }
    winners = {golden.play(g)[-1][1].outcome().winner == g.player for g in solo}
    assert winners == {True, False}
    # the later rules: a scenario with each kind of feature, and every mode
    scenarios = {g.scenario for g in golden.GAMES}
    assert {"valley", "wall", "mist", "torus", "cave"} <= scenarios
    assert {g.mode for g in golden.GAMES} == {"grasshopper", "monk", "master", "chosen-one"}
    assert any(dict(g.options).get("village") for g in golden.GAMES)
    assert len({g.name for g in golden.GAMES}) == len(golden.GAMES)


LATER = [g for g in golden.GAMES if g.why]


@pytest.mark.parametrize("game", LATER, ids=lambda g: g.name)
def test_later_games_use_what_they_claim(game):
    """Each game of the later rules uses the features it was chosen for, and its header says
    so: the seed's reason and the counted features, as comment lines."""
    assert game.uses, "name the features the game must use"
    assert set(game.uses) <= set(golden.FEATURE_ORDER)
    found = golden.features(game.start(), golden.play(game))
    assert all(found[name] > 0 for name in game.uses), dict(found)
    text = (GOLDEN / game.filename()).read_text(encoding="utf-8")
    header = " ".join(line[1:].strip() for line in text.splitlines() if line.startswith("#"))
    assert f"Why seed {game.seed}:" in header
    assert f"The game uses: {golden.describe_features(found)}." in header
    for name in game.uses:
        assert f"{found[name]} {name}" in header


WALL = "wall/grasshopper/current 7o/6o1/5o2/4o3/3o4/2o5/1o6/o7"
STACKS = "WW/-/BW/-/BB/-/WB/-"
FIELD = "8/8/8/8/8/8/8/8 a2-a1-b1-b2:{w} g8-h8-h7-g7:{b}"


@pytest.mark.parametrize(
    ("tln", "turn", "expected"),
    [
        (  # tests/engine/test_features_portals.py: through the green twins g2 -> b7
            "valley/grasshopper/current 8/3R2G1/8/3##3/3##1B1/8/1G6/8 g3-g4-h4-h5:4:2 "
            f"a8-b8-c8-d8:4:0 {STACKS} 0:6 w 5",
            "Wa>He [g2b7]b6,b5",
            {"portal steps (green)": 1},
        ),
        (  # north from a1 comes back on a6
            f"torus/grasshopper/current 6/6/6/6/6/6 a1-a2-a3-a4:4:0 c5-d5-e5-e4:4:0 {STACKS} "
            "0:8 w 5",
            "He>Fi a6+",
            {"edge crossings": 1},
        ),
        (  # tests/engine/test_features_board.py: trampling g2
            f"{WALL} f2-e2-d2-c2:4:0 h5-h6-h7-h8:4:0 {STACKS} 0:8 w 5",
            "Fi>Ea g2",
            {"rocks trampled": 1},
        ),
        (  # ... and biting it
            f"{WALL} e2-d2-c2-b2:4:0 h5-h6-h7-h8:4:0 {STACKS} 0:8 w 5",
            "Fi>Ea f2",
            {"rock hits": 1},
        ),
        (  # the challenger ends its turn beside the village
            "field/grasshopper/current+village=black 8/8/8/3VV3/3VV3/8/8/8 c3-b3-a3-a2:4:0 "
            f"g8-h8-h7-g7:4:0 {STACKS} 0:8 w 5",
            "He>Fi c4+",
            {"village damage": 1},
        ),
        (  # tests/engine/test_features_modes.py: a Focus for black, impossible
            "field/monk/current " + FIELD.format(w="4:0", b="4:0") + " BBB/-/WW/-/-/-/WW/B 0:8 w 3",
            "Wi>He {b:-} a3",
            {"Focus": 1, "impossible Focus": 1},
        ),
        (  # ... and a Balance for white
            "field/monk/current " + FIELD.format(w="2:0", b="4:3") + " W/BB/W/BB/W/W/-/- 2:5 w 3",
            "Mo>Wa a3+",
            {"Balance": 1},
        ),
        (  # Master: two whites flow clockwise
            "field/master/current " + FIELD.format(w="4:0", b="4:0") + f" {STACKS}@ccw 0:8 w 1",
            "He>Wa a3+",
            {"clockwise sowings": 1},
        ),
    ],
)
def test_features_are_counted_turn_by_turn(tln, turn, expected):
    start = State(tln)
    played = start.parse_turn(turn)
    assert golden.features(start, [(played, start.play(played))]) == expected


@pytest.mark.parametrize("path", golden_files(), ids=lambda p: p.stem)
def test_replay_golden_file(path):
    text = path.read_text(encoding="utf-8")
    comments = [line for line in text.splitlines()[:10] if line.startswith("#")]
    assert any("python tools/golden.py" in line for line in comments)
    record = parse(text)
    header = record.header
    assert set(header) == {"game", "seed", "rules", "start"}
    assert header["game"] == path.stem
    state = State(header["start"])
    rules = Rules.from_token(header["rules"])
    assert state.rules == rules
    if rules.solo:  # the player's colour is the side to move of the start
        start = solo_game(
            rules.scenario, rules.mode, player=state.to_move, edition=rules.edition,
            **dict(rules.options),
        )  # fmt: skip
    else:
        start = new_game(rules.scenario, rules.mode, edition=rules.edition, **dict(rules.options))
    assert state == start
    assert state.ply == 0
    assert record.turns, "an empty transcript"
    for expected_number, entry in enumerate(record.turns, start=1):
        where = f"{path.name}:{entry.line} turn {entry.number}"
        assert entry.number == expected_number, where
        assert entry.side == state.to_move, where
        assert not state.is_over(), where
        turn = state.parse_turn(entry.notation)
        assert str(turn) == entry.notation, where
        assert turn in state.legal_turns(), where
        state = state.play(turn)
        assert state.to_tln() == entry.tln, where
        assert state.ply == entry.number, where
        if entry.board:  # the text board; in Chosen One revealed (the transcript pins it)
            shown = [line.rstrip() for line in board_text(state, reveal=True).splitlines()]
            assert entry.board == shown, where
        else:
            assert entry.number % golden.BOARD_EVERY, f"{where}: board missing"
    assert state.is_over()
    assert record.turns[-1].board, "the last position's board is shown"
    assert record.footer == {"result": str(state.outcome()), "turns": str(len(record.turns))}


@pytest.mark.parametrize("game", golden.GAMES, ids=lambda g: g.name)
def test_regenerating_gives_identical_text(game):
    path = GOLDEN / game.filename()
    assert golden.render(game) == path.read_text(encoding="utf-8")
    # Rendering is deterministic.
    assert golden.render(game) == golden.render(game)


def test_check_mode_passes_on_the_committed_files():
    out = io.StringIO()
    assert golden.check(GOLDEN, out=out) == 0
    assert "up to date" in out.getvalue()


def test_check_mode_reports_a_diff_and_fails(tmp_path, capsys):
    game = golden.GAMES[0]
    good = golden.render(game)
    for g in golden.GAMES:
        (tmp_path / g.filename()).write_text(golden.render(g), encoding="utf-8")
    assert golden.main(["--check", "--dir", str(tmp_path)]) == 0
    capsys.readouterr()
    broken = good.replace("\n2 black ", "\n2 black X", 1)
    (tmp_path / game.filename()).write_text(broken, encoding="utf-8")
    assert golden.main(["--check", "--dir", str(tmp_path)]) == 1
    report = capsys.readouterr().out
    assert "-2 black X" in report and "+2 black " in report
    assert "regenerate with" in report
    # --check never writes.
    assert (tmp_path / game.filename()).read_text(encoding="utf-8") == broken
    # Without --check the file is rewritten.
    assert golden.main(["--dir", str(tmp_path)]) == 0
    assert (tmp_path / game.filename()).read_text(encoding="utf-8") == good


def test_check_mode_flags_missing_and_stray_files(tmp_path):
    out = io.StringIO()
    (tmp_path / "stray.txt").write_text("x\n", encoding="utf-8")
    assert golden.check(tmp_path, out=out) == 1
    report = out.getvalue()
    assert "missing:" in report and "stray golden file" in report


def test_the_tool_is_a_script_outside_the_package():
    """``python tools/golden.py --check`` runs from any folder, with no PYTHONPATH (it finds
    the taolong_lab of its checkout), and the package itself holds no tools."""
    import importlib.util
    import os
    import subprocess
    import sys

    assert importlib.util.find_spec("taolong_lab.tools") is None
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run(
        [sys.executable, str(Path(golden.__file__)), "--check", "--dir", str(GOLDEN)],
        cwd="/",
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "golden files up to date" in done.stdout
    where = subprocess.run(
        [
            sys.executable,
            "-c",
            f"import runpy; runpy.run_path({str(Path(golden.__file__))!r}); "
            "import taolong_lab; print(taolong_lab.__file__)",
        ],
        cwd="/",
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    root = Path(golden.__file__).resolve().parents[1]
    assert Path(where.stdout.strip()).resolve().is_relative_to(root), where.stdout + where.stderr
