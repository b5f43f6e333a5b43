"""Replay the golden transcripts in tests/golden (see tests/golden/README.md).

Regenerate after an intended change with ``.venv/bin/python -m taolong_lab.tools.golden``.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from taolong_lab import State, new_game
from taolong_lab.rules import Rules
from taolong_lab.tools import golden

GOLDEN = Path(__file__).resolve().parent / "golden"
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
    assert 3 <= len(golden.GAMES) <= 4


@pytest.mark.parametrize("path", golden_files(), ids=lambda p: p.stem)
def test_replay_golden_file(path):
    text = path.read_text(encoding="utf-8")
    comments = [line for line in text.splitlines()[:10] if line.startswith("#")]
    assert any("python -m taolong_lab.tools.golden" in line for line in comments)
    record = parse(text)
    header = record.header
    assert set(header) == {"game", "seed", "rules", "start"}
    assert header["game"] == path.stem
    state = State(header["start"])
    rules = Rules.from_token(header["rules"])
    assert state.rules == rules
    assert state == new_game(edition=rules.edition, **dict(rules.options))
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
        if entry.board:
            shown = [line.rstrip() for line in str(state).splitlines()]
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
