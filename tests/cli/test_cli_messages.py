"""The command line's own words (issue 32): every option has help text, and a library message
reaches the user in the command line's spelling (``--method explicit``, not
``method='explicit'``)."""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil

import pytest

from taolong_lab import cli
from taolong_lab.agents import GameRecord, save_records
from taolong_lab.cli import build_parser, main
from taolong_lab.cli.common import Command, worded
from taolong_lab.cli.parser import COMMANDS
from taolong_lab.errors import Arg
from taolong_lab.games import game
from taolong_lab.solvers import SolverError
from taolong_lab.solvers.common import options_refused

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


def _declared_commands() -> list[Command]:
    """The commands the modules of taolong_lab.cli declare (``COMMAND``, ``COMMANDS``)."""
    declared = []
    for info in pkgutil.iter_modules(cli.__path__):
        if info.name in ("parser", "__main__"):  # the table itself, the program
            continue
        for value in vars(importlib.import_module(f"taolong_lab.cli.{info.name}")).values():
            if isinstance(value, Command):
                declared.append(value)
            elif isinstance(value, tuple) and value and all(isinstance(v, Command) for v in value):
                declared.extend(value)
    return declared


def test_every_declared_command_is_in_the_table_once_and_runs_its_own_run():
    assert sorted(c.name for c in _declared_commands()) == sorted(c.name for c in COMMANDS)
    [subcommands] = [
        a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)
    ]
    assert list(subcommands.choices) == [c.name for c in COMMANDS]  # each once, in order
    for command in COMMANDS:
        parser = subcommands.choices[command.name]
        assert parser.get_default("run") is command.run
        assert parser.description == command.description
    assert subcommands.choices["games"].format_usage().endswith("[NAME]\n")  # its arguments


# ---- what the commands check alike ---------------------------------------------------------
@pytest.fixture
def record(tmp_path, monkeypatch) -> str:
    """A game record file with no turn, in a scratch folder made the current one."""
    monkeypatch.chdir(tmp_path)
    save_records("game.jsonl", [GameRecord.from_actions(game("taolong").new(), [], ("a", "b"))])
    return "game.jsonl"


@pytest.mark.parametrize("command", [["openings"], ["review", "game.jsonl"]])
def test_the_search_commands_refuse_no_time_alike(capsys, record, command):
    assert main([*command, "--time", "0", "--nodes", "10"]) == 2
    assert capsys.readouterr() == ("", "taolong: error: --time: must be above 0 seconds\n")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["openings", "--json", "t.txt"], "--json 't.txt': must be a .json file"),
        (["openings", "--json", "no/dir/t.json"], "--json 'no/dir/t.json': no such folder"),
        (["tournament", "random", "greedy", "--out", "no/dir/t.json"], "--out 'no/dir/t.json'"),
        (["balance", "--levels", "random", "--out", "no/dir/c.json"], "--out 'no/dir/c.json'"),
        (["balance", "--levels", "random", "--out", "c.json", "--plot", "no/c.svg"], "--plot"),
        (["review", "game.jsonl", "--out", "no/dir/r.jsonl"], "--out 'no/dir/r.jsonl'"),
        (["review", "game.jsonl", "--plot", "no/dir/g.svg"], "--plot 'no/dir/g.svg'"),
        (["play", "--vs", "greedy", "--record", "no/dir/g.jsonl"], "--record 'no/dir/g.jsonl'"),
    ],
)
def test_an_output_file_in_no_folder_is_refused_before_any_work(capsys, record, argv, message):
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(f"taolong: error: {message}") and err.count("\n") == 1
    assert err.endswith((": no such folder\n", ": must be a .json file\n"))
    assert sorted(os.listdir()) == ["game.jsonl"]  # nothing written, no lock taken


@pytest.mark.parametrize(
    ("error", "python", "command_line"),
    [
        (
            SolverError.naming(Arg("method", "explicit"), " is the one to use"),
            "method='explicit' is the one to use",
            "--method explicit is the one to use",
        ),
        (
            options_refused("race", ("time_limit", "progress"), {"max_states": 3}),
            "method='race' takes time_limit= and progress= only, not max_states=",
            "--method race takes --time-limit and --progress only, not --max-states",
        ),
        (
            SolverError.naming(Arg("fresh", True), " needs ", Arg("checkpoint"), " too"),
            "fresh=True needs checkpoint= too",
            "--fresh needs --checkpoint too",
        ),
        (
            SolverError.naming(Arg("conflict_budget", 10), ": must be >= 0", limit=0),
            "conflict_budget=10: must be >= 0",
            "--conflicts 10: must be >= 0",
        ),
        (  # words that look like an option are words: only the named arguments are spelled
            SolverError("cannot read /x/method=a.jsonl: the method and the checkpoint"),
            "cannot read /x/method=a.jsonl: the method and the checkpoint",
            "cannot read /x/method=a.jsonl: the method and the checkpoint",
        ),
    ],
)
def test_a_library_error_is_worded_from_the_arguments_it_names(error, python, command_line):
    assert str(error) == python
    assert worded(error) == command_line


def test_an_error_knows_its_field_value_and_limit():
    error = options_refused("auto", ("time_limit",), {"max_states": 3, "fresh": True})
    assert (error.field, error.value, error.limit) == ("method", "auto", ("time_limit",))
    assert [arg.name for arg in error.parts if isinstance(arg, Arg)] == [
        "method",
        "time_limit",
        "max_states",
        "fresh",
    ]


def test_a_library_error_is_printed_in_the_command_line_spelling(capsys, monkeypatch):
    import taolong_lab.cli.solve as solve_command

    def refuse(*args, **kwargs):
        raise SolverError.naming(
            "the SAT solver cannot take this one; use ", Arg("method", "explicit")
        )

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


@pytest.mark.parametrize(
    ("options", "python", "command_line"),
    [
        ({"conflicts": "0", "method": "sat"}, "conflict_budget=0 conflicts spent", "--conflicts 0"),
        ({"time-limit": "0"}, "time_limit=0 reached", "--time-limit 0 reached"),
    ],
)
def test_each_budget_s_stop_is_worded_from_its_argument(capsys, options, python, command_line):
    from taolong_lab import load_puzzles, solve

    puzzle = load_puzzles("puzzles/field-intermediate.jsonl")[0]
    library = {
        {"conflicts": "conflict_budget", "time-limit": "time_limit"}.get(key, key): (
            value if key == "method" else int(value)
        )
        for key, value in options.items()
    }
    assert solve(puzzle, **library).certificate.stopped == python
    argv = [f"--{key}" if i % 2 == 0 else value for key, value in options.items() for i in (0, 1)]
    assert main(["solve", f"puzzles/field-intermediate.jsonl:{puzzle.id}", *argv]) == 1
    assert f"unknown ({command_line}" in capsys.readouterr().out
