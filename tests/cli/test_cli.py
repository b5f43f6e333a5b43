"""The ``taolong`` command line: output, exit codes, error messages."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from taolong_lab import State, __version__, new_game
from taolong_lab.cli import main

START_TLN = (
    "field/grasshopper/current 8/8/8/8/8/8/8/8 a2-a1-b1-b2:4:0 g8-h8-h7-g7:4:0 "
    "WW/-/BW/-/BB/-/WB/- 0:8 w 1"
)
START_TURNS = [
    "1. He>Fi a3+    sow Heaven -> Fire, step a3, absorb",
    "2. He>Fi a3x    sow Heaven -> Fire, step a3, expel",
    "3. Ea>Wa a3+    sow Earth -> Water, step a3, absorb",
    "4. Ea>Wa a3x    sow Earth -> Water, step a3, expel",
    "5. Wa>He a3     sow Water -> Heaven, step a3",
    "6. Wa>He a3,a4  sow Water -> Heaven, step a3 a4",
]
# White to move with a Wind that grants a second phase (found by a seeded random game).
TWO_PHASE_TLN = (
    "field/grasshopper/current 8/8/8/8/8/8/8/8 a3-a2-a1-b1:4:0 f8-g8-h8-h7:4:0 "
    "-/W/-/B/BBW/W/WB/- 0:8 w 3"
)
# The end of a game: the white dragon is only its head.
FINAL_TLN = (
    "field/grasshopper/current 8/8/8/8/8/8/8/8 h8:0:3 e7-d7-d6:1:0 B/W/B/WB/WB/-/W/- 7:5 w 451"
)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


# ---- show -------------------------------------------------------------------------------------
def test_show_start_board(capsys):
    code, out, err = run(capsys, "show")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "   a b c d e f g h"
    assert lines[1] == " 1 ○ ○ · · · · · ·"
    assert lines[2] == " 2 ▽ ○ · · · · · ·"  # the white head faces south
    assert lines[8] == " 8 · · · · · · ◀ ●"  # the black head faces west
    assert "turn 1: white to move" in lines
    assert out == str(new_game()) + "\n"


def test_show_tln_appends_the_tln_line(capsys):
    code, out, _ = run(capsys, "show", "--tln")
    assert code == 0
    assert out.splitlines()[-1] == START_TLN
    assert out.startswith(str(new_game()))


def test_show_json(capsys):
    code, out, _ = run(capsys, "show", "--json")
    assert code == 0
    doc = json.loads(out)
    assert doc == new_game().to_json()
    assert doc["dragons"]["white"]["cells"] == ["a2", "a1", "b1", "b2"]


def test_show_rules_arguments(capsys):
    code, out, _ = run(
        capsys, "show", "--edition", "earlier", "--option", "bite_on_stay=false", "--tln"
    )
    assert code == 0
    assert out.splitlines()[-1].split()[0] == "field/grasshopper/earlier+bite_on_stay=false"
    code, out, _ = run(capsys, "show", "--scenario", "field", "--mode", "grasshopper", "--tln")
    assert (code, out.splitlines()[-1]) == (0, START_TLN)
    # dashes work in option names too, and a default value leaves the rules as they are
    code, out, _ = run(capsys, "show", "--option", "extra-phases=1", "--tln")
    assert (code, out.splitlines()[-1]) == (0, START_TLN)


def test_show_position(capsys):
    code, out, _ = run(capsys, "show", "--position", FINAL_TLN, "--tln")
    assert code == 0
    lines = out.splitlines()
    assert lines[8] == " 8 · · · · · · · ⊗"
    assert "black wins: white lost its last segment" in lines
    assert lines[-1] == FINAL_TLN


# ---- turns ------------------------------------------------------------------------------------
def test_turns_at_the_start(capsys):
    code, out, err = run(capsys, "turns")
    assert (code, err) == (0, "")
    assert out.splitlines() == START_TURNS


def test_turns_two_phases(capsys):
    code, out, _ = run(capsys, "turns", "--position", TWO_PHASE_TLN)
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == len(State(TWO_PHASE_TLN).legal_turns()) == 19
    assert lines[0] == " 1. La>Fi b3+               sow Lake -> Fire, step b3, absorb"
    assert lines[12] == (
        "13. Ea>Wi b3 ; Wa>La =      sow Earth -> Wind, step b3; then sow Water -> Lake, stay"
    )


def test_turns_when_the_game_is_over(capsys):
    code, out, _ = run(capsys, "turns", "--position", FINAL_TLN)
    assert code == 0
    assert out == "no legal turns: black wins: white lost its last segment\n"


# ---- play -------------------------------------------------------------------------------------
def test_play_prints_the_turns_and_the_board(capsys):
    code, out, _ = run(capsys, "play", "--tln", "Wa a3,a4", "Ea>Wa f8x")
    assert code == 0
    after = new_game().play("Wa>He a3,a4").play("Ea>Wa f8x")
    lines = out.splitlines()
    assert lines[:2] == ["1. white Wa>He a3,a4", "2. black Ea>Wa f8x"]
    assert out == f"{lines[0]}\n{lines[1]}\n\n{after}\n\n{after.to_tln()}\n"


def test_play_from_a_position_as_json(capsys):
    code, out, _ = run(capsys, "play", "--position", TWO_PHASE_TLN, "--json", "Ea>Wi b3 ; Wa>La =")
    assert code == 0
    assert State.from_json(out) == State(TWO_PHASE_TLN).play("Ea>Wi b3 ; Wa>La =")


# ---- scenarios and version --------------------------------------------------------------------
def test_scenarios(capsys):
    code, out, _ = run(capsys, "scenarios")
    assert code == 0
    assert out.splitlines() == [
        "cave       The Cave - Ruins reveal the way.",
        "field      The Field - Clarity gives space for practice.",
        "gorge      The Gorge - Traversing demands caution.",
        "maze       The Maze - Fate is born from choice.",
        "mist       The Mist - Variety dims prediction.",
        "torus      The Torus - Restriction calls for freedom.",
        "valley     The Valley - Balance supports strategy.",
        "wall       The Wall - Initiative spawns opportunity.",
    ]


def test_version(capsys):
    code, out, _ = run(capsys, "--version")
    assert code == 0 and out.startswith(f"taolong {__version__} (solo search: ")


def test_help(capsys):
    code, out, _ = run(capsys, "--help")
    assert code == 0
    for command in ("show", "turns", "play", "scenarios"):
        assert command in out


# ---- errors -----------------------------------------------------------------------------------
BAD_START = START_TLN.replace("a2-a1-b1-b2:4:0", "a2-a1-c1-b2:4:0")


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["show", "--position", "nonsense"], ["bad position: tln", "8 fields"]),
        (["show", "--position", START_TLN.replace(" w 1", " x 1")], ["side", "'x'"]),
        (
            ["show", "--position", START_TLN.replace("a2-a1", "a2-z1")],
            ["bad position: white.cells[1]", "z1 is off the 8x8 board"],
        ),
        (["show", "--position", BAD_START], ["broken body", "a1 and c1"]),
        (["show", "--position", START_TLN.replace("0:8", "0:7")], ["fire stones"]),
        (["show", "--json", "--position", START_TLN.replace("WW/", "WX/")], ["bagua.heaven"]),
        (["show", "--scenario", "moon"], ["unknown scenario 'moon'", "field"]),
        (
            ["show", "--option", "solo_lookahead=next-turn"],
            ["'solo_lookahead' only applies to the solo variant"],
        ),
        (["show", "--solo", "--option", "solo_lookahead=far"], ["'solo_lookahead'", "not 'far'"]),
        (["show", "--edition", "first"], ["unknown edition 'first'"]),
        (["show", "--option", "bite=1"], ["unknown option 'bite'", "bite_on_stay"]),
        (["show", "--option", "bite_on_stay=3"], ["'bite_on_stay'", "not 3"]),
        (["show", "--option", "bite_on_stay"], ["must read name=value"]),
        (["show", "--option", "scenario=field"], ["unknown option 'scenario'"]),
        (["show", "--position", START_TLN, "--edition", "earlier"], ["drop --edition"]),
        (["show", "--tln", "--json"], ["not allowed with"]),
        (["turns", "--position", START_TLN.replace(" 1", " 0")], ["turn", "start at 1"]),
        (["play", "Wa>He a3", "Qq a1"], ["turn 2 ('Qq a1')", "not a Ba Gua space"]),
        (["play", "He>Fi a3"], ["turn 1 ('He>Fi a3')", "absorb + or expel x"]),
        (["play", "Wa>Fi a3"], ["sowing Wa lands on Heaven, not Fire"]),
        (["play", "--position", FINAL_TLN, "He b1"], ["the game is over"]),
        (["play"], ["required: TURN"]),
        (["frobnicate"], ["invalid choice: 'frobnicate'"]),
        ([], ["required: COMMAND"]),
    ],
)
def test_bad_input_exits_2_with_one_error_line(capsys, argv, words):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err.startswith("taolong: error: ")
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert "Traceback" not in err
    for word in words:
        assert word in err


# ---- the installed script ---------------------------------------------------------------------
def _script() -> Path:
    path = Path(sys.executable).with_name("taolong")
    if not path.exists():
        pytest.skip(f"no installed taolong script next to {sys.executable}")
    return path


def test_installed_script():
    script = _script()
    done = subprocess.run(
        [str(script), "turns"], capture_output=True, text=True, encoding="utf-8", check=False
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines() == START_TURNS
    done = subprocess.run(
        [str(script), "show", "--position", "field/grasshopper/current 9/8"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith("taolong: error: bad position: tln")
    assert "Traceback" not in done.stderr
