"""The command line's own words (issue 32): every option has help text, and a library message
reaches the user in the command line's spelling (``--method explicit``, not
``method='explicit'``)."""

from __future__ import annotations

import argparse

import pytest

from taolong_lab.cli import build_parser, main
from taolong_lab.cli.common import cli_spelling

MONK_NOVICE = "puzzles/field-novice.jsonl:field-novice-01"  # a puzzle in the Monk mode


def parsers(parser: argparse.ArgumentParser, name: str = "taolong"):
    """The parser and each command's parser, with its name."""
    yield name, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for command, sub in action.choices.items():
                yield from parsers(sub, f"{name} {command}")


def test_every_option_and_argument_has_help_text():
    missing = [
        f"{name} {'/'.join(action.option_strings) or action.metavar or action.dest}"
        for name, parser in parsers(build_parser())
        for action in parser._actions
        if not isinstance(action, argparse._SubParsersAction) and action.help in (None, "")
    ]
    assert missing == []


def test_the_walk_sees_every_command():
    names = {name for name, _ in parsers(build_parser())}
    for command in ("show", "turns", "play", "puzzles", "solve", "verify", "graph", "generate"):
        assert f"taolong {command}" in names


@pytest.mark.parametrize(
    ("library", "command_line"),
    [
        ("use method='explicit'", "use --method explicit"),
        ("method='race' takes time_limit only", "--method race takes --time-limit only"),
        ("max_states=300 positions expanded", "--max-states 300 positions expanded"),
        ("conflict_budget=10 reached", "--conflicts 10 reached"),
        ("fresh=True needs checkpoint= too", "--fresh needs --checkpoint too"),
        ("the method and the checkpoint", "the method and the checkpoint"),
        ("cannot read /x/method=a.jsonl", "cannot read /x/method=a.jsonl"),
        ("--method explicit --time-limit 3", "--method explicit --time-limit 3"),
    ],
)
def test_cli_spelling(library, command_line):
    assert cli_spelling(library) == command_line


def test_a_library_error_is_printed_in_the_command_line_spelling(capsys, monkeypatch):
    import taolong_lab.cli.solve as solve_command
    from taolong_lab.solvers import SolverError

    def refuse(*args, **kwargs):
        raise SolverError("the SAT solver cannot take this one; use method='explicit'")

    monkeypatch.setattr(solve_command, "solve", refuse)
    assert main(["solve", MONK_NOVICE, "--method", "sat"]) == 2
    err = capsys.readouterr().err
    assert err == "taolong: error: the SAT solver cannot take this one; use --method explicit\n"


def test_a_stop_reason_is_printed_in_the_command_line_spelling(capsys):
    assert (
        main(
            ["solve", "puzzles/field-intermediate.jsonl:field-intermediate-01", "--max-states", "3"]
        )
        == 1
    )
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("field-intermediate-01: unknown (--max-states 3 positions expanded)")
