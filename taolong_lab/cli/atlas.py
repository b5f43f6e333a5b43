"""``taolong atlas``: prove the optimum of every shuffled solo start
(:func:`taolong_lab.puzzles.atlas.run`), or print what an atlas folder holds.

``taolong atlas DIR [--scenario NAME.. | all] [--method auto|race|explicit|sat]
[--time-limit S] [--workers K] [--scheduler [tcp://|tls://]HOST:PORT [--tls-* F]]
[--progress|--no-progress]``: proves the challenges not yet in ``DIR``; a rerun resumes. The
folder must be named: a whole atlas is hours of CPU (``make atlas`` runs
``taolong atlas puzzles/atlas``). ``taolong atlas [DIR] --summary``: the table of optima, as
the README shows it (``DIR`` defaults to ``puzzles/atlas`` here); ``--costs``: the positions
and CPU time each challenge took (both flags: both tables). Ctrl-C stops the run (exit status
130); the same command resumes it.

``taolong atlas lookup SCENARIO DRAGON STACKS [--folder DIR]``: a start as a player reads it
off the table (``field white BB.WW.BW.BW``, or the Ba Gua field of its TLN): its optimum, a
winning line in words, and how it ranks among the scenario's starts (the bundled atlas unless
``--folder`` names another).
"""

from __future__ import annotations

from pathlib import Path

from ..puzzles import atlas, bundle
from ..rules import scenario_names
from ..runner import MAX_WORKERS, RunnerError
from ..solvers import METHODS
from .common import EXIT_OK, Command, CommandError, add_progress_option, worded
from .generate import (
    EXIT_INTERRUPTED,
    _add_names,
    _int,
    _names,
    _time_limit,
    add_cluster_options,
    the_runner,
)

DEFAULT_FOLDER = "puzzles/atlas"


def _arguments(cmd) -> None:
    """The arguments of ``atlas``."""
    cmd.add_argument(
        "folder",
        nargs="*",
        default=[],
        metavar="DIR | lookup SCENARIO DRAGON STACKS",
        help="the atlas folder, required to prove (--summary, --costs: default puzzles/atlas); "
        "or 'lookup' and a start, e.g. 'lookup field white BB.WW.BW.BW' (the Ba Gua's four "
        "main stacks, or its TLN field): its optimum, its line in words and its rank",
    )
    cmd.add_argument(
        "--folder",
        dest="lookup_folder",
        default=None,
        metavar="DIR",
        help="lookup: the atlas folder (default: the bundled atlas)",
    )
    _add_names(
        cmd,
        "--scenario",
        "all",
        f"scenarios to prove, of {', '.join(scenario_names())} (default: all)",
    )
    cmd.add_argument(
        "--method",
        choices=METHODS,
        default="auto",
        help="the solver of each challenge (default: auto)",
    )
    cmd.add_argument(
        "--time-limit",
        default="3600",
        metavar="S",
        help="seconds per challenge, at most a day (default: 3600)",
    )
    cmd.add_argument(
        "--workers", default=None, metavar="K", help="worker processes (default: one per core)"
    )
    add_cluster_options(cmd)
    add_progress_option(cmd)
    cmd.add_argument(
        "--summary", action="store_true", help="print the table of proved optima and stop"
    )
    cmd.add_argument(
        "--costs",
        action="store_true",
        help="print what the proved challenges cost (positions, CPU seconds) and stop",
    )


def run(args, out) -> int:
    """``taolong atlas``: run the atlas the command line asks for, or print its table.

    Returns
    -------
    int
        0, or 130 when interrupted.

    Raises
    ------
    CommandError
        A value out of its range or an unknown scenario (names the flag), or an atlas file
        that is not the run's.
    """
    if args.folder[:1] == ["lookup"]:
        return _lookup(args.folder[1:], args.lookup_folder, out)
    if len(args.folder) > 1:
        raise CommandError(f"atlas: one folder, not {len(args.folder)} ('lookup' looks a start up)")
    args.folder = args.folder[0] if args.folder else None
    if args.summary or args.costs:
        folder = _atlas_folder(args.folder or DEFAULT_FOLDER)
        if args.summary:
            print(atlas.table(folder), end="", file=out)
        if args.summary and args.costs:
            print(file=out)
        if args.costs:
            print(atlas.cost_table(atlas.costs(folder)), end="", file=out)
        return EXIT_OK
    if args.folder is None:
        raise CommandError(
            f"atlas: name the folder to prove into, e.g. 'taolong atlas {DEFAULT_FOLDER}' "
            "(hours of CPU for every scenario; a rerun resumes); 'taolong atlas --summary' "
            "prints what it holds"
        )
    names = _names("--scenario", args.scenario, list(scenario_names()))
    workers = atlas.default_runner().workers
    if args.workers is not None:
        workers = _int("--workers", args.workers, 1, MAX_WORKERS)
    runner = the_runner(args, workers)
    try:
        done = atlas.run(
            args.folder,
            None if names == "all" else names,
            method=args.method,
            time_limit=_time_limit(args.time_limit),
            runner=runner,
        )
    except KeyboardInterrupt:
        print("interrupted: the same command resumes the run", file=out)
        return EXIT_INTERRUPTED
    except (atlas.AtlasError, RunnerError) as exc:
        raise CommandError(worded(exc)) from None
    for scenario, counts in done.items():
        print(f"{scenario}: {counts['proved']} proved, {counts['pending']} pending", file=out)
    return EXIT_OK


def _lookup(words: list[str], folder: str | None, out) -> int:
    """Print a start's optimum, its line in words and its rank among the atlas's starts."""
    if len(words) != 3:
        raise CommandError(
            "atlas lookup: give SCENARIO DRAGON STACKS, e.g. 'taolong atlas lookup field white "
            "BB.WW.BW.BW'"
        )
    scenario, player, text = words
    try:
        stacks = atlas.parse_stacks(text)
        found = atlas.lookup(folder or bundle.atlas_folder(), scenario, player, stacks)
    except atlas.AtlasError as exc:
        raise CommandError(f"atlas lookup: {exc}") from None
    puzzle = found.puzzle
    print(f"{puzzle.id}: win in {_turns(puzzle.optimum)}, {found.rank()}", file=out)
    for line in found.words():
        print(f"  {line}", file=out)
    return EXIT_OK


def _turns(n: int) -> str:
    return f"{n} turn{'s' * (n != 1)}"


def _atlas_folder(folder: str) -> Path:
    """``folder`` when it holds atlas files; else a :class:`CommandError` saying why."""
    path = Path(folder)
    if not path.is_dir():
        raise CommandError(f"atlas: {folder}: no such folder (taolong atlas DIR makes one)")
    if not any(path.glob("*.jsonl")):
        raise CommandError(f"atlas: {folder}: no atlas file (*.jsonl) in it")
    return path


COMMAND = Command(
    "atlas",
    "prove the optimum of every shuffled solo start (resumable)",
    run,
    _arguments,
    "Prove the optimum of every shuffled solo start of the scenarios into DIR, resuming what "
    "is there: the whole atlas is hours of CPU. With --summary or --costs, print what DIR holds "
    "(default: puzzles/atlas) and stop.",
)
