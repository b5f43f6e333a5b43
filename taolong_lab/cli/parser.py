"""The parser of ``taolong`` and :func:`main`, which runs a command and reports any bad input
on one line."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from ..errors import TaoLongError
from ..solvers import kernel
from ..version import __version__
from . import (
    atlas,
    balance,
    doctor,
    games,
    generate,
    graph,
    openings,
    position,
    puzzles,
    review,
    solve,
    tournament,
    verify,
)
from .common import EXIT_ERROR, EXIT_OK, PROG, Parser, worded

COMMANDS = (  # in the order of ``taolong --help``
    *position.COMMANDS,
    games.COMMAND,
    tournament.COMMAND,
    balance.COMMAND,
    review.COMMAND,
    openings.COMMAND,
    puzzles.COMMAND,
    solve.COMMAND,
    verify.COMMAND,
    graph.COMMAND,
    generate.COMMAND,
    atlas.COMMAND,
    doctor.COMMAND,
)


def build_parser() -> Parser:
    """The parser of every command of :data:`COMMANDS`: each sets ``run``, the command's
    ``run(args, out)`` that returns the exit status (:class:`~.common.Command`).

    Returns
    -------
    Parser
        Raises :class:`~.common.UsageError` on a command line it rejects.
    """
    parser = Parser(
        prog=PROG,
        description="Tao Long positions and turns from the command line.",
        epilog="Turn notation and TLN: docs/notation.md.",
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"{PROG} {__version__} (solo search: {kernel.status().split(':')[0]})",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    commands.required = True
    for command in COMMANDS:
        added = commands.add_parser(
            command.name, help=command.help, description=command.description
        )
        if command.arguments is not None:
            command.arguments(added)
        added.set_defaults(run=command.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line.

    Parameters
    ----------
    argv : sequence of str or None
        The arguments after the program's name (default: ``sys.argv[1:]``).

    Returns
    -------
    int
        The exit status: 0 done, 1 a budget left a puzzle unknown (``solve``), fewer puzzles
        than asked (``generate``) or a stored proof fails its check (``verify --proof``), 2 bad
        input (one line ``taolong: error: ...`` on stderr), 130 interrupted (``generate``).
    """
    out, err = sys.stdout, sys.stderr
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        return args.run(args, out)
    except SystemExit as exc:  # --help and --version
        return exc.code if isinstance(exc.code, int) else EXIT_OK
    except TaoLongError as exc:
        print(f"{PROG}: error: {worded(exc)}", file=err)
        return EXIT_ERROR
    except BrokenPipeError:  # e.g. `taolong show --json | head`: stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK


__all__ = ["COMMANDS", "build_parser", "main"]
