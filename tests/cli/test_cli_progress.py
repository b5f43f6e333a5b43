"""One progress convention for the long commands (issue 32): a bar on stderr when stderr is a
terminal, ``--progress``/``--no-progress`` to force it either way; ``solve``'s bar covers the
count of the optimal first turns too."""

from __future__ import annotations

import os
import select
import struct
import subprocess
import sys
from pathlib import Path

import pytest
from small_wins import WIN_IN_2

from taolong_lab import State
from taolong_lab.cli import build_parser, main
from taolong_lab.cli.generate import parse
from taolong_lab.solvers.explicit import count_first_turns, solve

ROOT = Path(__file__).resolve().parents[2]
SPEC = "puzzles/field-intermediate.jsonl:field-intermediate-02"


def on_a_terminal(*argv: str) -> tuple[int, str, str]:
    """Run ``taolong ARGV`` with stderr on a pseudo-terminal: the exit status, stdout and
    what the terminal showed."""
    fcntl = pytest.importorskip("fcntl", reason="pseudo-terminals need a POSIX system")
    pty = pytest.importorskip("pty", reason="pseudo-terminals need a POSIX system")
    termios = pytest.importorskip("termios", reason="pseudo-terminals need a POSIX system")
    leader, follower = pty.openpty()
    rows_columns = struct.pack("HHHH", 24, 100, 0, 0)  # a new terminal is 0 columns wide
    fcntl.ioctl(follower, termios.TIOCSWINSZ, rows_columns)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with subprocess.Popen(
        [sys.executable, "-m", "taolong_lab.cli", *argv],
        stdout=subprocess.PIPE,
        stderr=follower,
        stdin=subprocess.DEVNULL,
        cwd=ROOT,
        env=env,
    ) as process:
        os.close(follower)
        shown = b""
        while True:
            ready, _, _ = select.select([leader], [], [], 60)
            if not ready:
                process.kill()
                pytest.fail("no end of output within a minute")
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # the terminal's other end closed
                break
            if not chunk:
                break
            shown += chunk
        out = process.stdout.read().decode()
        code = process.wait(timeout=60)
    os.close(leader)
    return code, out, shown.decode(errors="replace")


def test_solve_shows_every_stage_on_a_terminal():
    code, out, shown = on_a_terminal("solve", SPEC)
    assert code == 0 and out.startswith("field-intermediate-02: optimal: win in 3")
    assert "pos" in shown  # the search
    assert "optimal first turns" in shown  # and the count after it


def test_no_progress_keeps_a_terminal_quiet():
    code, out, shown = on_a_terminal("solve", SPEC, "--no-progress")
    assert code == 0 and out.startswith("field-intermediate-02: optimal: win in 3")
    assert shown == ""


def test_no_bar_off_a_terminal_unless_asked(capsys):
    assert main(["solve", SPEC]) == 0
    assert capsys.readouterr().err == ""
    assert main(["solve", SPEC, "--progress"]) == 0
    err = capsys.readouterr().err
    assert "pos" in err and "optimal first turns" in err


def test_the_explicit_solver_shows_the_first_turn_count(capsys):
    found = solve(State(WIN_IN_2), progress=True)
    err = capsys.readouterr().err
    assert found.optimal_first_turns > 0
    assert "pos" in err and "optimal first turns" in err
    solve(State(WIN_IN_2))
    assert capsys.readouterr().err == ""


def test_the_sat_solver_shows_the_first_turn_count(capsys):
    from taolong_lab.solvers.sat import solve as sat_solve

    found = sat_solve(State(WIN_IN_2), progress=True)
    err = capsys.readouterr().err
    assert found.optimal_first_turns > 0
    assert "SAT optimal first turns: " in err and " settled" in err


def test_the_first_turn_count_on_its_own_shows_it_too(capsys):
    # method="auto" counts again this way when the explicit run's count ran out
    count = count_first_turns(State(WIN_IN_2), 2, progress=True)
    err = capsys.readouterr().err
    first_turns = len(list(State(WIN_IN_2).iter_successors()))
    assert count > 0 and "optimal first turns" in err and f"0/{first_turns}" in err
    assert count_first_turns(State(WIN_IN_2), 2) == count
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize(
    ("flags", "terminal", "expected"),
    [
        ([], True, True),
        ([], False, False),
        (["--progress"], False, True),
        (["--no-progress"], True, False),
    ],
)
def test_every_long_command_follows_the_convention(monkeypatch, flags, terminal, expected):
    monkeypatch.setattr("sys.stderr.isatty", lambda: terminal)
    generate = build_parser().parse_args(["generate", "--count", "1", "--out", "x.jsonl", *flags])
    assert parse(generate)["runner"].progress is expected
    seen = {}

    class Called(Exception):
        """Raised by the stand-ins once they have seen what they were asked."""

    def stand_in(name):
        def record(*args, progress, **kwargs):
            seen[name] = progress
            raise Called

        return record

    monkeypatch.setattr("taolong_lab.cli.graph.explore", stand_in("graph"))
    monkeypatch.setattr("taolong_lab.cli.solve.solve", stand_in("solve"))

    def bar(items, *, disable, **kwargs):
        seen["verify"] = not disable
        raise Called

    monkeypatch.setattr("taolong_lab.cli.verify.tqdm", bar)
    for argv in (
        ["graph", SPEC, "--depth", "1", "--out", "g.gexf"],
        ["solve", SPEC],
        ["verify", SPEC.partition(":")[0]],
    ):
        args = build_parser().parse_args([*argv, *flags])
        with pytest.raises(Called):
            args.run(args, None)
    assert seen == {"graph": expected, "solve": expected, "verify": expected}
